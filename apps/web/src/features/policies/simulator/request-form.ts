import type { SimulationRequest } from '@palisade/contracts';

/** What the simulator form edits: strings, empty for "not given". */
export interface RequestFormValues {
  subject: 'user' | 'device';
  userId: string | null;
  deviceId: string;
  destination: string;
  sourceIp: string;
  protocol: 'tcp' | 'udp';
  /** A `datetime-local` value in the browser's time zone, or empty for "now". */
  time: string;
}

export const EMPTY_REQUEST_FORM: RequestFormValues = {
  subject: 'user',
  userId: null,
  deviceId: '',
  destination: '',
  sourceIp: '',
  protocol: 'tcp',
  time: '',
};

/** The form values as the contract's request; empty fields are left out. */
export function toSimulationRequest(values: RequestFormValues): SimulationRequest {
  const request: SimulationRequest = { destination: values.destination.trim(), protocol: values.protocol };
  if (values.subject === 'user' && values.userId) request.userId = values.userId;
  if (values.subject === 'device' && values.deviceId.trim()) request.deviceId = values.deviceId.trim();
  if (values.sourceIp.trim()) request.sourceIp = values.sourceIp.trim();
  if (values.time) {
    const date = new Date(values.time);
    request.time = Number.isNaN(date.getTime()) ? values.time : date.toISOString();
  }
  return request;
}

/** A stored request back as form values (editing a pinned test). */
export function toRequestFormValues(request: SimulationRequest): RequestFormValues {
  const pad = (n: number) => String(n).padStart(2, '0');
  let time = '';
  if (request.time) {
    const d = new Date(request.time);
    if (!Number.isNaN(d.getTime())) {
      time = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }
  }
  return {
    subject: request.deviceId && !request.userId ? 'device' : 'user',
    userId: request.userId ?? null,
    deviceId: request.deviceId ?? '',
    destination: request.destination,
    sourceIp: request.sourceIp ?? '',
    protocol: request.protocol ?? 'tcp',
    time,
  };
}
