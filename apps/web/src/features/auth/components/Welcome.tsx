import { type FormEvent, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { useApp } from "../../../app/app-context";
import { ErrorNote, Loading } from "../../../shared/components/status";
import { slugFrom, slugProblem } from "../../../shared/slug";
import { tokenEmail } from "../../../app/session";
import { useJoin, useReceivedInvitations } from "../hooks";

/** A signed-in identity without an organization: accept an invitation, or create an organization. */
export default function Welcome() {
  const { token, signOut } = useApp();
  const navigate = useNavigate();
  const invitations = useReceivedInvitations();
  const { accept } = useJoin(() => navigate("/", { replace: true }));
  if (!token) return <Navigate to="/sign-in" replace />;
  return (
    <main id="main" className="auth-page">
      <h1>Welcome</h1>
      <p>
        Signed in as <strong>{tokenEmail(token)}</strong>.{" "}
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </p>
      <section aria-labelledby="invitations-title" className="card">
        <h2 id="invitations-title">Invitations</h2>
        {invitations.isPending ? (
          <Loading />
        ) : invitations.error ? (
          <ErrorNote error={invitations.error} title="Could not load your invitations" />
        ) : invitations.data.items.length === 0 ? (
          <p className="empty">No pending invitation for this address.</p>
        ) : (
          <ul className="plain">
            {invitations.data.items.map((inv) => (
              <li key={inv.id}>
                <strong>{inv.organization_name}</strong> invites you as <em>{inv.role}</em>
                {inv.invited_by ? ` (from ${inv.invited_by.name})` : ""}.{" "}
                <button type="button" className="primary" onClick={() => accept.mutate(inv.id)} disabled={accept.isPending}>
                  Join {inv.organization_name}
                </button>
              </li>
            ))}
          </ul>
        )}
        {accept.error && <ErrorNote error={accept.error} title="Could not accept" />}
      </section>
      <SignUpForm />
    </main>
  );
}

function SignUpForm() {
  const navigate = useNavigate();
  const { signup } = useJoin(() => navigate("/", { replace: true }));
  const [form, setForm] = useState({ company_name: "", first_name: "", last_name: "", job_title: "", slug: "" });
  const [slugEdited, setSlugEdited] = useState(false);
  const slug = slugEdited ? form.slug : slugFrom(form.company_name);
  const problem = slugProblem(slug);
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem)
      signup.mutate({
        company_name: form.company_name,
        first_name: form.first_name,
        last_name: form.last_name,
        ...(form.job_title.trim() ? { job_title: form.job_title } : {}),
        ...(slug ? { slug } : {}),
      });
  };
  return (
    <form className="card form" onSubmit={submit} aria-labelledby="signup-title">
      <h2 id="signup-title">Create your organization</h2>
      <label>
        Company name
        <input required maxLength={200} value={form.company_name} onChange={set("company_name")} autoComplete="organization" />
      </label>
      <div className="row">
        <label>
          First name
          <input required maxLength={200} value={form.first_name} onChange={set("first_name")} autoComplete="given-name" />
        </label>
        <label>
          Last name
          <input required maxLength={200} value={form.last_name} onChange={set("last_name")} autoComplete="family-name" />
        </label>
      </div>
      <label>
        Job title (optional)
        <input maxLength={200} value={form.job_title} onChange={set("job_title")} autoComplete="organization-title" />
      </label>
      <label>
        Slug
        <input
          value={slug}
          onChange={(e) => {
            setSlugEdited(true);
            setForm({ ...form, slug: e.target.value });
          }}
          aria-invalid={!!problem}
          aria-describedby="slug-help"
        />
      </label>
      <p id="slug-help" className={problem ? "field-error" : "muted"}>
        {problem ?? "Your organization's short name in URLs; leave empty to derive one."}
      </p>
      <button type="submit" className="primary" disabled={signup.isPending}>
        {signup.isPending ? "Creating…" : "Create organization"}
      </button>
      {signup.error && <ErrorNote error={signup.error} title="Sign-up failed" />}
    </form>
  );
}
