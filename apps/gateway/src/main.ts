/**
 * The reference gateway's command line:
 *   npm run gateway -- --server URL --token T [--dir DIR] [--apply] [--interface NAME] [--dns-port N]
 *     [--endpoint HOST:PORT]
 * The token may also come from PALISADE_GATEWAY_TOKEN (a command line is visible to every user of the box).
 * Exit codes: 0 stopped (SIGINT/SIGTERM), 2 the credential was revoked, 1 any other failure.
 */
import { parseArgs } from 'node:util';
import { WireguardEndpoint } from '@palisade/contracts';
import { runAgent } from './agent';
import { GatewayRevokedError } from './client';

const USAGE = `Usage: npm run gateway -- --server URL [--token TOKEN] [options]

  --server URL          the console, e.g. https://palisade.example (env PALISADE_SERVER)
  --token TOKEN         the one-time enrolment token (env PALISADE_GATEWAY_TOKEN); needed until enrolled
  --dir DIR             state and artefacts (default ./palisade-gateway)
  --apply               enforce the artefacts: wireguard-go, nftables, Unbound (root, Linux)
  --interface NAME      the WireGuard interface (default pal-<first 8 of the gateway id>)
  --endpoint HOST:PORT  where devices reach its WireGuard port (env PALISADE_GATEWAY_ENDPOINT);
                        sent at enrolment: the devices' peer Endpoint
  --dns-port N          Unbound's port (default 53)
  --unbound-include F   extra Unbound configuration, included in its server: clause
  --hostname NAME       reported at enrolment (default this host's name)
  --wait S              seconds a bundle long-poll is held (default 30)
  -h, --help`;

function main() {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse().values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(1);
  }
  if (values.help) {
    console.info(USAGE);
    return;
  }
  const server = values.server ?? process.env.PALISADE_SERVER;
  if (!server) {
    console.error(`--server is required\n\n${USAGE}`);
    process.exit(1);
  }
  const number = (text: string | undefined, name: string) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      console.error(`${name}: expected a whole number`);
      process.exit(1);
    }
    return n;
  };
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`${new Date().toISOString()} ${signal}: stopping`);
      stop.abort();
    });
  }
  const endpoint = values.endpoint ?? process.env.PALISADE_GATEWAY_ENDPOINT;
  if (endpoint !== undefined && !WireguardEndpoint.safeParse(endpoint).success) {
    console.error(
      `--endpoint: expected HOST:PORT (an IPv4 address or a DNS name, and a port), not "${endpoint}"`,
    );
    process.exit(1);
  }
  runAgent({
    server,
    token: values.token ?? process.env.PALISADE_GATEWAY_TOKEN,
    dir: values.dir ?? 'palisade-gateway',
    apply: values.apply ?? false,
    interfaceName: values.interface,
    endpoint: endpoint?.trim(),
    dnsPort: number(values['dns-port'], '--dns-port'),
    unboundInclude: values['unbound-include'],
    hostname: values.hostname,
    waitSeconds: number(values.wait, '--wait'),
    signal: stop.signal,
  }).then(
    (result) => {
      console.error(
        `${new Date().toISOString()} stopped (gateway ${result.gatewayId}, enforced ${result.enforcedVersion})`,
      );
      process.exit(0);
    },
    (error: unknown) => {
      const revoked = error instanceof GatewayRevokedError;
      console.error(`${new Date().toISOString()} ${revoked ? '' : 'failed: '}${(error as Error).message}`);
      process.exit(revoked ? 2 : 1);
    },
  );
}

function parse() {
  return parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      dir: { type: 'string' },
      apply: { type: 'boolean' },
      interface: { type: 'string' },
      endpoint: { type: 'string' },
      'dns-port': { type: 'string' },
      'unbound-include': { type: 'string' },
      hostname: { type: 'string' },
      wait: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}

main();
