import { Empty } from "../../../shared/components/status";
import { useTenant } from "../../../app/tenant";
import { NamespaceCosts } from "./NamespaceCosts";
import { NodePools } from "./NodePools";

export default function Kubernetes() {
  const { tenantId } = useTenant();
  return (
    <>
      <h1>Kubernetes</h1>
      {!tenantId ? (
        <Empty>No tenant is in your reach yet: ask an administrator to give you one.</Empty>
      ) : (
        <>
          <NamespaceCosts tenantId={tenantId} />
          <NodePools tenantId={tenantId} />
        </>
      )}
    </>
  );
}
