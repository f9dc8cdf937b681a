import type { AuthConfig } from "./config";

const TOKEN_KEY = "cloudcost.token";

/** The bearer token lives for the browser tab only (sessionStorage), never in a cookie or localStorage. */
export const tokenStore = {
  get: (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

type OidcConfig = Extract<AuthConfig, { mode: "oidc" }> & { use_id_token?: boolean };

/** oidc-client-ts is loaded only when a provider is configured: the development sign-in never pays for it. */
async function userManager(config: OidcConfig) {
  const { UserManager, WebStorageStateStore } = await import("oidc-client-ts");
  return new UserManager({
    authority: config.authority,
    client_id: config.client_id,
    redirect_uri: config.redirect_uri ?? `${window.location.origin}/auth/callback`,
    response_type: "code",
    scope: config.scope ?? "openid email profile",
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
}

/** Authorization code with PKCE (oidc-client-ts makes the verifier and challenge). */
export async function startOidcSignIn(config: OidcConfig): Promise<void> {
  await (await userManager(config)).signinRedirect();
}

export async function finishOidcSignIn(config: OidcConfig): Promise<string> {
  const user = await (await userManager(config)).signinRedirectCallback();
  const token = config.use_id_token ? user.id_token : user.access_token;
  if (!token) throw new Error("The identity provider returned no token.");
  return token;
}

/** Reads a JWT's payload without verifying it (the API verifies): only to show who is signed in. */
export function tokenEmail(token: string | undefined): string | undefined {
  if (!token || token.startsWith("bl_")) return undefined;
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { email?: string };
    return payload.email;
  } catch {
    return undefined;
  }
}
