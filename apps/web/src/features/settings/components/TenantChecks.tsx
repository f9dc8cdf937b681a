import { useTenant } from "../../../app/tenant";
import { Checks } from "../../../shared/components/Checks";

/** The organization's tenants as checkboxes: which ones a key, an invitation or a user reaches. */
export function TenantChecks(props: { legend: string; legendClassName?: string; picked: string[]; onChange(ids: string[]): void }) {
  const { tenants } = useTenant();
  return <Checks {...props} options={tenants.map((t) => [t.id, t.name] as const)} />;
}
