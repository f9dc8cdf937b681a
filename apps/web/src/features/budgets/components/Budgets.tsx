import { Empty } from "../../../shared/components/status";
import { useTenant } from "../../../app/tenant";
import { Anomalies } from "./Anomalies";
import { BudgetList } from "./BudgetList";

export default function Budgets() {
  const { tenantId, tenants } = useTenant();
  const tenantName = tenants.find((t) => t.id === tenantId)?.name ?? "this tenant";
  return (
    <>
      <h1>Budgets and anomalies</h1>
      {!tenantId ? (
        <Empty>No tenant is in your reach yet: ask an administrator to give you one.</Empty>
      ) : (
        <>
          <BudgetList tenantId={tenantId} tenantName={tenantName} />
          <Anomalies tenantId={tenantId} tenantName={tenantName} />
        </>
      )}
    </>
  );
}
