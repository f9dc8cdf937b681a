import fs from "node:fs";
import path from "node:path";

/**
 * PGlite writes its files 0666 (postgresql.conf, global/pg_control, the catalogs), whatever the
 * umask: the embedded database must live in a directory only the service's user can enter.
 */

/** Creates the data directory (and a missing parent, such as `.data`) 0700; an existing data directory is set to 0700. */
export function preparePrivateDataDir(dataDir: string): void {
  const dir = path.resolve(dataDir);
  // `mode` applies only to directories this call creates: a parent that exists is left as it is.
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Takes group and other permissions off everything under the data directory (after PGlite opened it). */
export function restrictDataDir(dataDir: string): void {
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(p, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(path.resolve(dataDir));
}
