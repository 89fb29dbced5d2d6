import { buildApp } from './app';
import { loadConfig } from './config';
import { DataDirInUseError } from './db/client';
import { prepareCountryRanges } from './modules/policy-core/geoip';
import { seed } from './seed/seed';

/** Starts Palisade: database, optional seed, HTTP; closes everything on SIGINT/SIGTERM. */
const config = loadConfig();
const { app, database, close } = await buildApp(config).catch((error: unknown) => {
  // Another server has DATA_DIR open: say so plainly and stop, touching nothing.
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
const seeded = await seed(database, config);

let isClosing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (isClosing) return;
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    await close();
    process.exit(0);
  });
}

// The country ranges gateways block by, walked once before the first bundle needs them (≈1 s).
prepareCountryRanges();
await app.listen({ port: config.port, host: config.host });
const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
const lines = [
  '',
  `  Palisade is running at ${url}`,
  `  Database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'}${config.redisUrl ? ' + Redis' : ''}`,
  `  API docs: ${url}/api/docs`,
  ...(config.smtpUrl
    ? []
    : config.devOutbox
      ? [
          `  Mail: no SMTP_URL: mail is kept in the outbox, for platform administrators at ${url}/api/dev/outbox`,
        ]
      : [
          '  Mail: no SMTP_URL: mail is kept in the outbox; set DEV_OUTBOX=true to read it at /api/dev/outbox',
        ]),
  ...seeded.lines,
  '',
];
console.info(lines.join('\n'));
