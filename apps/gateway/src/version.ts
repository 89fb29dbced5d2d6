/** The gateway software's version, reported at enrolment and in every heartbeat. */
export const AGENT_VERSION = '0.1.0';
