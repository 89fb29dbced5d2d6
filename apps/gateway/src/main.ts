/**
 * The reference gateway's command line:
 *   npm run gateway -- --server URL --token T [--dir DIR] [--apply] [--interface NAME] [--dns-port N]
 *     [--endpoint HOST:PORT] [--simulate-traffic RATE]
 * and as a device (device.ts), the way the Palisade client runs an endpoint:
 *   npm run gateway -- --device --server URL --token pal_enr_… [--name N] [--os OS] [--dir DIR]
 *     [--apply --interface NAME]
 * The token may also come from PALISADE_GATEWAY_TOKEN (PALISADE_DEVICE_TOKEN with --device): a command line is
 * visible to every user of the box.
 * Exit codes: 0 stopped (SIGINT/SIGTERM), 2 the credential was revoked, 1 any other failure.
 */
import { parseArgs } from 'node:util';
import { type DeviceOs, WireguardEndpoint } from '@palisade/contracts';
import { runAgent, SIMULATE_TRAFFIC_RANGE } from './agent';
import { DeviceRevokedError, GatewayRevokedError } from './client';
import { ENDPOINT_OS, runDevice } from './device';

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
  --simulate-traffic RATE
                        post RATE synthetic decision events a second (1 to 100000) to the console: plausible
                        requests of the tenant's users, decided by the policy of the bundle it holds
  -h, --help

As a device (an endpoint, the way the Palisade client runs one):
  npm run gateway -- --device --server URL --token pal_enr_… [--name NAME] [--os OS] [--dir DIR]
                     [--apply --interface NAME]

  --device              enrol as a device with its own WireGuard key (POST /api/enrol), check in as the
                        server asks (POST /api/device/checkin), rotate an expired key (POST /api/device/rotate)
                        and write its wg-quick configuration to DIR/device.conf (0600)
  --token TOKEN         a user link's or a deployment key's enrolment token (env PALISADE_DEVICE_TOKEN);
                        needed until enrolled
  --name NAME           the device's name in the console (default this host's name)
  --os OS               ${ENDPOINT_OS.join(', ')} (default this platform's)
  --dir DIR             state and device.conf (default ./palisade-device)
  --apply               bring the tunnel up as wg-quick would: wireguard-go, addresses, MTU, a route per
                        AllowedIPs (root, Linux; DNS is left to you); torn down on SIGTERM
  --interface NAME      the WireGuard interface (default pald-<first 8 of the device id>); unique on the box`;

const GATEWAY_ONLY = [
  'endpoint',
  'dns-port',
  'unbound-include',
  'hostname',
  'wait',
  'simulate-traffic',
] as const;
const DEVICE_ONLY = ['name', 'os'] as const;

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
  const misplaced = values.device
    ? GATEWAY_ONLY.filter((flag) => values[flag] !== undefined)
    : DEVICE_ONLY.filter((flag) => values[flag] !== undefined);
  if (misplaced.length > 0) {
    const flags = misplaced.map((flag) => `--${flag}`).join(', ');
    console.error(`${flags}: ${values.device ? 'not for --device' : 'only with --device'}\n\n${USAGE}`);
    process.exit(1);
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`${new Date().toISOString()} ${signal}: stopping`);
      stop.abort();
    });
  }
  if (values.device) {
    if (values.os !== undefined && !(ENDPOINT_OS as readonly string[]).includes(values.os)) {
      console.error(`--os: one of ${ENDPOINT_OS.join(', ')}, not "${values.os}"`);
      process.exit(1);
    }
    runDevice({
      server,
      token: values.token ?? process.env.PALISADE_DEVICE_TOKEN,
      name: values.name,
      os: values.os as DeviceOs | undefined,
      dir: values.dir ?? 'palisade-device',
      apply: values.apply ?? false,
      interfaceName: values.interface,
      signal: stop.signal,
    }).then(
      (result) => {
        console.error(
          `${new Date().toISOString()} stopped (device ${result.deviceId}, enforced ${result.enforcedVersion})`,
        );
        process.exit(0);
      },
      (error: unknown) => {
        const revoked = error instanceof DeviceRevokedError;
        console.error(`${new Date().toISOString()} ${revoked ? '' : 'failed: '}${(error as Error).message}`);
        process.exit(revoked ? 2 : 1);
      },
    );
    return;
  }
  const endpoint = values.endpoint ?? process.env.PALISADE_GATEWAY_ENDPOINT;
  if (endpoint !== undefined && !WireguardEndpoint.safeParse(endpoint).success) {
    console.error(
      `--endpoint: expected HOST:PORT (an IPv4 address or a DNS name, and a port), not "${endpoint}"`,
    );
    process.exit(1);
  }
  let simulateTraffic: number | undefined;
  if (values['simulate-traffic'] !== undefined) {
    simulateTraffic = Number(values['simulate-traffic']);
    const { min, max } = SIMULATE_TRAFFIC_RANGE;
    if (!Number.isFinite(simulateTraffic) || simulateTraffic < min || simulateTraffic > max) {
      console.error(
        `--simulate-traffic: events a second, ${min} to ${max}, not "${values['simulate-traffic']}"`,
      );
      process.exit(1);
    }
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
    simulateTraffic,
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
      'simulate-traffic': { type: 'string' },
      device: { type: 'boolean' },
      name: { type: 'string' },
      os: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}

main();
