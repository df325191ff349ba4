// Everything a route or service needs, built once per process and passed explicitly (no service locator).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';

export interface Deps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
}

export function createDeps(config: Config, db: Db, log: FastifyBaseLogger): Deps {
  return { config, db, log };
}
