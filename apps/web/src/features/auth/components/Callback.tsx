import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useApp } from "../../../app/app-context";
import { ErrorNote, Loading } from "../../../shared/components/status";
import { finishOidcSignIn } from "../../../app/session";

export default function Callback() {
  const { config, signIn } = useApp();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    if (config.auth.mode !== "oidc") return;
    finishOidcSignIn(config.auth).then(
      (token) => {
        signIn(token);
        navigate("/", { replace: true });
      },
      (err: unknown) => setError(err),
    );
  }, [config.auth, signIn, navigate]);
  return <main className="auth-page">{error ? <ErrorNote error={error} title="Sign-in failed" /> : <Loading label="Signing you in…" />}</main>;
}
