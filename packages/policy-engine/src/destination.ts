/**
 * Parsing of a destination as an operator types it into the simulator or a policy test.
 */
import { parseIp } from './ip';

export interface Destination {
  /** Lower-cased host name (punycode for international names), no trailing dot; null for an address. */
  host: string | null;
  /** URL path with its query (`/a/b?x`), '/' at least, for a URL; null for a bare host (not HTTP). */
  path: string | null;
  /** IPv4 address when the destination is one. */
  ip: string | null;
  /** Explicit port, else 80 for http and 443 for https URLs, else null. */
  port: number | null;
}

const NONE: Destination = Object.freeze({ host: null, path: null, ip: null, port: null }) as Destination;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

function cleanHost(hostname: string): string | null {
  let h = hostname.toLowerCase();
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h.length === 0 || h.length > 253) return null;
  // IPv6 literals and anything else that is not a DNS name are not destinations the engine decides.
  return /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/.test(h) ? h : null;
}

/**
 * Splits a destination into host, path, address and port. Accepts a URL (`https://Host.example.com:8443/a?x`),
 * a domain (`example.com`), `domain:port`, an address (`1.2.3.4`) or `address:port`; a scheme-less
 * `example.com/path` is read as an `http://` URL. Anything else gives all nulls.
 */
export function parseDestination(text: string): Destination {
  if (typeof text !== 'string') return { ...NONE };
  const s = text.trim();
  if (s.length === 0) return { ...NONE };
  const scheme = SCHEME.exec(s);
  if (scheme || /[/?#]/.test(s)) {
    let url: URL;
    try {
      url = new URL(scheme ? s : `http://${s}`);
    } catch {
      return { ...NONE };
    }
    const protocol = url.protocol.slice(0, -1).toLowerCase();
    const port = url.port ? Number(url.port) : (DEFAULT_PORTS[protocol] ?? null);
    const path = `${url.pathname || '/'}${url.search}`;
    let hostname = url.hostname;
    if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
    if (parseIp(hostname) >= 0) return { host: null, path, ip: hostname, port };
    const host = cleanHost(hostname);
    return host === null ? { ...NONE } : { host, path, ip: null, port };
  }
  const m = /^([^:\s]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return { ...NONE };
  let port: number | null = null;
  if (m[2] !== undefined) {
    port = Number(m[2]);
    if (port < 1 || port > 65535) return { ...NONE };
  }
  const hostPart = m[1].endsWith('.') ? m[1].slice(0, -1) : m[1];
  if (parseIp(hostPart) >= 0) return { host: null, path: null, ip: hostPart, port };
  if (/^[\d.]+$/.test(hostPart)) return { ...NONE }; // a malformed address is not a host name
  let hostname: string;
  try {
    hostname = new URL(`http://${hostPart}`).hostname;
  } catch {
    return { ...NONE };
  }
  const host = cleanHost(hostname);
  return host === null ? { ...NONE } : { host, path: null, ip: null, port };
}
