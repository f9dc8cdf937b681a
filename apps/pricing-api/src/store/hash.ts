import { createHash } from "node:crypto";

/** The sha256 of a text, in hex (content versions, row fingerprints, lock keys). */
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
