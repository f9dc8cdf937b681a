// Errors that mean "the database cannot be reached right now" (a restart, a failover, a network
// cut), in every form they reach a handler: node-postgres socket and protocol errors, PostgreSQL's
// shutdown/startup SQLSTATEs, Prisma driver-adapter error kinds and Prisma's P1xxx codes. They are
// answered 503 (retry later), not 500.

const CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  // Prisma: can't reach, timed out, operations timed out, server closed the connection, pool timeout.
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception family.
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

const KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

const MESSAGES =
  /Connection terminated|Client has encountered a connection error|connection (is )?closed|Can't reach database server|Server has closed the connection|the database system is (shutting down|starting up|in recovery mode)|terminating connection due to administrator command|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET/i;

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
  originalCode?: unknown;
  errors?: unknown;
}

/** True when `err` (or anything it wraps) says the database is unreachable or went away. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as ErrorLike;
  if (typeof e.code === "string" && CODES.has(e.code)) return true;
  if (typeof e.originalCode === "string" && CODES.has(e.originalCode)) return true;
  if (typeof e.kind === "string" && KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  const nested = [e.cause, e.meta?.driverAdapterError, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((inner) => inner !== err && isDatabaseUnavailable(inner, depth + 1));
}
