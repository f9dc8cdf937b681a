import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { devTokenClient } from "../dev-token";
import { useApp } from "../../../app/app-context";
import { ErrorNote } from "../../../shared/components/status";
import { startOidcSignIn } from "../../../app/session";

export default function SignIn() {
  const { config, token, signIn } = useApp();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const devSignIn = useMutation({
    mutationFn: () => devTokenClient(config.mainApiBase).mintDevToken({ body: { email: email.trim() } }),
    onSuccess: (data) => {
      signIn(data.token);
      navigate("/", { replace: true });
    },
  });
  const oidc = useMutation({ mutationFn: () => (config.auth.mode === "oidc" ? startOidcSignIn(config.auth) : Promise.resolve()) });
  if (token) return <Navigate to="/" replace />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    devSignIn.mutate();
  };
  return (
    <main id="main" className="auth-page">
      <h1>Sign in to the cloud cost console</h1>
      {config.auth.mode === "oidc" ? (
        <>
          <p>You will be sent to your organization's identity provider.</p>
          <button type="button" className="primary" onClick={() => oidc.mutate()} disabled={oidc.isPending}>
            Continue with single sign-on
          </button>
          {oidc.error && <ErrorNote error={oidc.error} title="Sign-in failed" />}
        </>
      ) : (
        <form onSubmit={submit} className="card form">
          <p className="muted">Development sign-in: any e-mail address, verified, from this machine only.</p>
          <label>
            E-mail address
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={devSignIn.isPending}>
            {devSignIn.isPending ? "Signing in…" : "Sign in"}
          </button>
          {devSignIn.error && <ErrorNote error={devSignIn.error} title="Sign-in failed" />}
        </form>
      )}
    </main>
  );
}
