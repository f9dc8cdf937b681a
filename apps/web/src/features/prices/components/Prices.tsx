import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { canManage, canWrite, useMe } from "../../../app/app-context";
import { ErrorNote, Loading } from "../../../shared/components/status";
import { usePricingAccount } from "../hooks";
import { PriceBook } from "./PriceBook";

const KEY = "cloudcost.pricing-key";

/**
 * The pricing API takes API keys only (not the sign-in token): the page asks for one of the
 * organization's keys, kept for this tab only.
 */
export default function Prices() {
  const me = useMe().data;
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY) ?? "");
  const [draft, setDraft] = useState("");
  const account = usePricingAccount(key);
  const use = (e: FormEvent) => {
    e.preventDefault();
    sessionStorage.setItem(KEY, draft.trim());
    setKey(draft.trim());
    setDraft("");
  };
  const forget = () => {
    sessionStorage.removeItem(KEY);
    setKey("");
  };
  return (
    <>
      <h1>Prices</h1>
      {!key || account.error ? (
        <form className="card form" onSubmit={use} aria-labelledby="key-title">
          <h2 id="key-title">Use an API key</h2>
          <p className="muted">
            The pricing API is reached with one of your organization's API keys
            {canManage(me) ? (
              <>
                {" "}
                (create one under <Link to="/settings/api-keys">Settings → API keys</Link>)
              </>
            ) : (
              " (ask an administrator for one)"
            )}
            . It stays in this browser tab only.
          </p>
          <label>
            API key
            <input type="password" autoComplete="off" required pattern="bl_.+" value={draft} onChange={(e) => setDraft(e.target.value)} />
          </label>
          <button type="submit" className="primary">
            Use key
          </button>
          {account.error && <ErrorNote error={account.error} title="The pricing API refused the key" />}
        </form>
      ) : account.isPending ? (
        <Loading />
      ) : (
        <>
          <p>
            Pricing account <code data-testid="pricing-account">{account.data.account_id}</code>{" "}
            <button type="button" className="link" onClick={forget}>
              Use another key
            </button>
          </p>
          <PriceBook apiKey={key} rights={{ register: canWrite(me), close: canManage(me) }} />
        </>
      )}
    </>
  );
}
