// Vitest globalSetup of the db project: builds the test database once per run, from
// platform/bootstrap.sql, every migration and seed.sql, and hands its location to every test file,
// whose create() then starts from a copy instead of running 13,000 lines of SQL again: of the one
// engine the files run on (./database.ts, backends). On PGlite the copy is a dump of the data directory (a tarball loaded by each file's own instance); on
// TEST_DATABASE_URL's Postgres it is a template database (`create database ... template`). The
// template is dropped when the run ends.
import type { TestProject } from 'vitest/node';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { createPGlite } from '../../../platform/pglite.mjs';
import { bootstrapSql, migrationsSql, seedSql } from './database';

const scripts = () => [bootstrapSql(), ...migrationsSql(), seedSql()];

async function buildPgliteDump(dir: string): Promise<string> {
  const pg = await createPGlite();
  try {
    for (const script of scripts()) await pg.exec(script);
    const dump = await pg.dumpDataDir('none');
    const file = path.join(dir, 'pglite-template.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await pg.close();
  }
}

async function buildPostgresTemplate(serverUrl: string): Promise<string> {
  const name = `esl_template_${Date.now().toString(36)}_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      for (const script of scripts()) await sql.unsafe(script);
    } finally {
      // A template can be copied only while no one is connected to it.
      await sql.end();
    }
    return name;
  } catch (error) {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    throw error;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-db-template-'));
  const serverUrl = process.env.TEST_DATABASE_URL ?? '';
  // Only the engine the policy tests run on (./database.ts, backends).
  const [pgliteDump, postgresTemplate] = serverUrl
    ? ['', await buildPostgresTemplate(serverUrl)]
    : [await buildPgliteDump(dir), ''];
  project.provide('databaseTemplates', { pgliteDump, postgresTemplate });
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (postgresTemplate) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${postgresTemplate} with (force)`).catch(() => {});
      await admin.end();
    }
  };
}
