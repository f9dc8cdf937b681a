import type { Prisma } from "./generated/prisma/client";

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
