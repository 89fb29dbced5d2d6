import { z } from 'zod';

/**
 * The times and numbers machines send — gateways' heartbeats, their peers' handshakes and metrics, their events,
 * devices' check-ins — checked once, here, for every payload of the gateway and device protocols. A value no clock
 * or counter could mean (`"infinity"`, a year 1970 handshake, a year 3000 one, 1e300 bytes per second) is refused
 * with the payload (400, naming the field) instead of being stored and breaking every screen that reads it later.
 */

/** The earliest time a machine may report (no Palisade gateway or client ran before). */
export const MACHINE_TIME_MIN = '2000-01-01T00:00:00.000Z';
const MACHINE_TIME_MIN_MS = Date.parse(MACHINE_TIME_MIN);
/** How far ahead of the server's clock a machine's time may be (a clock drifts a little). */
export const MACHINE_CLOCK_SKEW_MS = 5 * 60_000;
/** The most bytes (or bytes per second) a counter may report: the largest integer a double holds exactly. */
export const MACHINE_BYTES_MAX = Number.MAX_SAFE_INTEGER;
/** The most peers, users or hosts a machine may count (a tenant's device network holds 65 534 addresses). */
export const MACHINE_COUNT_MAX = 1_000_000;

const TIME_MESSAGE = { message: 'validation.machineTime' };
const RANGE_MESSAGE = { message: 'validation.numberRange' };
/** A number's own type check: missing is `required`; anything else (a string, JSON's 1e999 read as Infinity) out of range. */
const finite = () =>
  z.number({
    error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.numberRange'),
  });

/** Whether an ISO time lies between {@link MACHINE_TIME_MIN} and now plus {@link MACHINE_CLOCK_SKEW_MS}. */
export function isMachineTime(value: string, now = Date.now()): boolean {
  const at = Date.parse(value);
  return Number.isFinite(at) && at >= MACHINE_TIME_MIN_MS && at <= now + MACHINE_CLOCK_SKEW_MS;
}

/**
 * A time a machine reports: ISO 8601 (`Z` or an offset), from 2000-01-01 to 5 minutes after the server's clock
 * *at the moment it is parsed* (the check reads the clock then, not when the schema was built), kept as UTC
 * (`toISOString`).
 */
export const machineTime = () =>
  z.iso
    .datetime({ offset: true, ...TIME_MESSAGE })
    .refine((value) => !Number.isFinite(Date.parse(value)) || isMachineTime(value), TIME_MESSAGE)
    .overwrite((value) => {
      // Checks run on after a failed one: only a time that is one is rewritten.
      const at = Date.parse(value);
      return Number.isFinite(at) ? new Date(at).toISOString() : value;
    });

/** A whole number a machine counts or measures (bytes, milliseconds, peers): from 0 to `max`. */
export const machineInteger = (max: number) => {
  // `int()` holds a number to the safe integers already: a bound there would name the field twice.
  const whole = finite().int(RANGE_MESSAGE).min(0, RANGE_MESSAGE);
  return max < Number.MAX_SAFE_INTEGER ? whole.max(max, RANGE_MESSAGE) : whole;
};

/** A finite number a machine measures (a rate, a share, a round trip): from 0 to `max`. */
export const machineNumber = (max: number) => finite().min(0, RANGE_MESSAGE).max(max, RANGE_MESSAGE);

/** A count of bytes (or milliseconds) a machine reports: a whole number from 0 to {@link MACHINE_BYTES_MAX}. */
export const machineBytes = () => machineInteger(MACHINE_BYTES_MAX);

/** A count of things a machine holds (peers, users): a whole number from 0 to {@link MACHINE_COUNT_MAX}. */
export const machineCount = () => machineInteger(MACHINE_COUNT_MAX);

/** A share a machine measures (CPU, memory): from 0 to 100. */
export const machinePercent = () => machineNumber(100);
