import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/**
 * Encrypts signing secrets at rest (AES-256-GCM, a key derived from the service secret). The
 * row's organization and webhook ids are the associated data: a ciphertext copied to another row
 * does not decrypt.
 */
export interface SecretBox {
  seal(plaintext: string, organizationId: string, webhookId: string): string;
  open(sealed: string, organizationId: string, webhookId: string): string;
}

const VERSION = "v1";

export function createSecretBox(serviceSecret: Uint8Array): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", serviceSecret, Buffer.alloc(0), "cloudcost webhook signing secrets v1", 32));
  const aad = (organizationId: string, webhookId: string) => Buffer.from(`${organizationId}/${webhookId}`, "utf8");
  return {
    seal(plaintext, organizationId, webhookId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad(organizationId, webhookId));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed, organizationId, webhookId) {
      const [version, payload] = sealed.split(".");
      if (version !== VERSION || !payload) throw new Error("unknown webhook secret format");
      const raw = Buffer.from(payload, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAAD(aad(organizationId, webhookId));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
