import { inflateSync } from 'node:zlib';
import type { Fixture } from '../../../test/helper';

/**
 * The text of a PDF as pdfkit (under pdfmake) writes it, for the tests — no poppler needed: inflates the
 * streams, reads each font's ToUnicode map, and decodes the strings of the `Tj`/`TJ` operators of the content
 * streams with the font set by the last `Tf`. Text blocks are joined by spaces and whitespace is collapsed, so
 * a test looks for phrases (`toContain('Daily security brief')`).
 */
export function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: Buffer | null }>();
  // Each object from its header; a stream is read by its /Length, never by searching for `endobj`, which the
  // compressed bytes may contain, nor by trimming line ends, which may be its own last byte (a stream ending in
  // \r lost it, failed to inflate, and its page's text went missing: about one PDF in a hundred).
  const header = /(\d+) 0 obj\s*/g;
  for (let match = header.exec(source); match !== null; match = header.exec(source)) {
    const begin = match.index + match[0].length;
    const endobj = source.indexOf('endobj', begin);
    const at = source.indexOf('stream', begin);
    if (at === -1 || (endobj !== -1 && endobj < at)) {
      objects.set(Number(match[1]), {
        dict: source.slice(begin, endobj === -1 ? undefined : endobj),
        stream: null,
      });
      if (endobj !== -1) header.lastIndex = endobj + 'endobj'.length;
      continue;
    }
    const dict = source.slice(begin, at);
    let start = at + 'stream'.length;
    if (source[start] === '\r') start += 1;
    if (source[start] === '\n') start += 1;
    const length = /\/Length (\d+)(?=\s*(?:\/|>>))/.exec(dict);
    const end = length ? start + Number(length[1]) : source.indexOf('endstream', start);
    const raw = Buffer.from(source.slice(start, end), 'latin1');
    header.lastIndex = source.indexOf('endobj', end) + 'endobj'.length;
    let stream: Buffer = raw;
    if (/\/FlateDecode/.test(dict)) {
      try {
        stream = inflateSync(raw);
      } catch {
        stream = raw;
      }
    }
    objects.set(Number(match[1]), { dict, stream });
  }

  // Font resource names (`/F1 12 0 R`) → the font's ToUnicode map.
  const cmaps = new Map<number, Map<number, string>>();
  const cmapOf = (fontObject: number) => {
    if (cmaps.has(fontObject)) return cmaps.get(fontObject);
    const ref = /\/ToUnicode (\d+) 0 R/.exec(objects.get(fontObject)?.dict ?? '');
    const stream = ref ? objects.get(Number(ref[1]))?.stream : null;
    const map = new Map<number, string>();
    if (stream) {
      const text = stream.toString('latin1');
      const hex = (h: string) =>
        String.fromCodePoint(
          ...(h.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((u) => Number.parseInt(u, 16)),
        );
      for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
        for (const line of block[1].matchAll(
          /<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f\s]+>)/gi,
        )) {
          const from = Number.parseInt(line[1], 16);
          const to = Number.parseInt(line[2], 16);
          if (line[3].startsWith('[')) {
            for (const [i, m] of [...line[3].matchAll(/<([0-9a-f\s]+)>/gi)].entries())
              map.set(from + i, hex(m[1]));
          } else {
            const base = Number.parseInt(line[3].slice(1, -1), 16);
            for (let code = from; code <= to; code += 1)
              map.set(code, String.fromCodePoint(base + code - from));
          }
        }
      }
      for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
        for (const line of block[1].matchAll(/<([0-9a-f]+)>\s*<([0-9a-f\s]+)>/gi)) {
          map.set(Number.parseInt(line[1], 16), hex(line[2]));
        }
      }
    }
    cmaps.set(fontObject, map);
    return map;
  };
  const fontNames = new Map<string, number>();
  for (const { dict } of objects.values()) {
    for (const m of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) fontNames.set(m[1], Number(m[2]));
  }

  const decode = (hex: string, font: string | null) => {
    const cmap = font && fontNames.has(font) ? cmapOf(fontNames.get(font) as number) : undefined;
    if (!cmap || cmap.size === 0) return Buffer.from(hex, 'hex').toString('latin1');
    return (hex.match(/.{4}/g) ?? []).map((code) => cmap.get(Number.parseInt(code, 16)) ?? '').join('');
  };

  const parts: string[] = [];
  for (const { dict, stream } of objects.values()) {
    if (!stream || /\/Type \/(XObject|Font|FontDescriptor)|\/Subtype|\/Length1|CIDInit/.test(dict)) continue;
    const content = stream.toString('latin1');
    if (!/\bBT\b/.test(content)) continue;
    let font: string | null = null;
    const tokens = content.matchAll(
      /\/(F\d+)\s+[\d.]+\s+Tf|\[((?:[^\]\\]|\\.)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\(((?:[^)\\]|\\.)*)\)\s*Tj|\bET\b/g,
    );
    for (const token of tokens) {
      if (token[1]) font = token[1];
      else if (token[2] !== undefined) {
        parts.push(
          [...token[2].matchAll(/<([0-9a-fA-F]*)>|\(((?:[^)\\]|\\.)*)\)/g)]
            .map((m) => (m[1] !== undefined ? decode(m[1], font) : m[2]))
            .join(''),
        );
      } else if (token[3] !== undefined) parts.push(decode(token[3], font));
      else if (token[4] !== undefined) parts.push(token[4]);
      // A word broken at its hyphen ends a text block on the same line: no space there.
      else if (!parts.at(-1)?.endsWith('-')) parts.push(' ');
    }
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

// ─── Fixture helpers of the reports' tests ──────────────────────────────────────────────────────────────────

type Injector = Fixture['app'];

/** Calls `/api{url}` with a session (or none). */
export function caller(app: Injector) {
  return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api${url}`,
      headers: token ? { 'x-auth-token': token } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** Posts telemetry events as a gateway does (NDJSON), failing the test when they are not all accepted. */
export async function postEvents(app: Injector, credential: string, events: unknown[]) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/gw/events',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/x-ndjson' },
    payload: events.map((event) => JSON.stringify(event)).join('\n'),
  });
  if (res.statusCode !== 202) throw new Error(`events refused: ${res.body}`);
  const answer = res.json() as { accepted: number };
  if (answer.accepted !== events.length) throw new Error(`events not all accepted: ${res.body}`);
}

/** Creates a gateway of `kind` in the tenant and enrols it; answers its id and credential. */
export async function enrolledGateway(
  app: Injector,
  tenant: string,
  token: string,
  name: string,
  kind: 'cybernode' | 'cgw',
  publicKey: string,
) {
  const call = caller(app);
  const created = await call('POST', `/cybernodes/${tenant}`, token, { name, kind, region: 'Lab' });
  if (created.statusCode !== 201) throw new Error(`gateway not created: ${created.body}`);
  const enrolled = await app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey,
      hostname: `${name.toLowerCase().replace(/\W/g, '-')}.test`,
      version: '1.0.0',
    },
  });
  if (enrolled.statusCode !== 201) throw new Error(`gateway not enrolled: ${enrolled.body}`);
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
}

/** Creates an end user and enrols a device for them through an enrolment link; answers both ids. */
export async function userWithDevice(
  app: Injector,
  tenant: string,
  token: string,
  username: string,
  deviceName: string,
  publicKey: string,
) {
  const call = caller(app);
  const created = await call('POST', `/subscriber/user/${tenant}`, token, {
    username,
    firstname: 'Re',
    lastname: 'Port',
  });
  if (created.statusCode !== 201) throw new Error(`user not created: ${created.body}`);
  const userId = created.json().id as string;
  const link = await call('POST', `/enrolment/${tenant}/users/${userId}/link`, token, {});
  const enrolled = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name: deviceName, os: 'linux' },
    publicKey,
  });
  if (enrolled.statusCode !== 201) throw new Error(`device not enrolled: ${enrolled.body}`);
  return { userId, deviceId: enrolled.json().deviceId as string };
}
