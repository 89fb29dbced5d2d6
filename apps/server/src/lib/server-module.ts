import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { ChangeBus } from './change-bus';
import type { Mailer } from './mailer';
import type { SecretBox } from './secret-box';

/** What app.ts hands every module: the shared services of one app instance. */
export interface ModuleDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
  secrets: SecretBox;
  redis: Redis | null;
  /** Changes committed through any instance on the database, as this instance hears them. */
  changes: ChangeBus;
  log: FastifyBaseLogger;
}

/** Stops a module's background work. */
export type Stop = () => void | Promise<void>;

/**
 * A server module as app.ts registers it, from the one list in `module-list.ts`. A resource a module's routes
 * hold (a cache, a listener) is released with `api.addHook('onClose', …)`.
 */
export interface ServerModule {
  /** The folder under `src/modules/`. */
  name: string;
  /** Registers the module's API routes; they are mounted under `/api`. */
  api?: (api: FastifyInstance, deps: ModuleDeps) => void;
  /** Registers routes outside `/api` (the translations, the built web app, the 302 rule). */
  root?: (app: FastifyInstance, deps: ModuleDeps) => Promise<void>;
  /** Starts background work once every route is registered; its stop runs first when the app closes. */
  start?: (deps: ModuleDeps) => Stop;
}
