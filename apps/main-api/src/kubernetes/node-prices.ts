import { Decimal } from "@cloudcost/decimal";
import type { InstanceTypeRow, OperatingSystem, SavingsBasis } from "@cloudcost/contracts";
import type { CatalogKey, ComputeCatalogs } from "../compute/catalog-prices";
import { hourlyOf } from "../compute/rightsizing";
import type { NodeRow } from "./repository";

export interface PricedNode {
  node: NodeRow;
  /** The catalog row of the node's type, when the catalog has it. */
  row: InstanceTypeRow | null;
  catalog: InstanceTypeRow[];
  hourly: Decimal | null;
  cores: number | null;
  ram: number | null;
  /** The node's GPUs: as stated on the node, else the catalog's count of its type, else 0. */
  gpus: number;
}

/** The organization's catalog a node is priced from: spot nodes with spot prices, the others with the effective on-demand ones. */
export function catalogKeyOf(accountId: string, node: NodeRow): CatalogKey | null {
  if (!node.provider || !node.region) return null;
  return {
    accountId,
    provider: node.provider,
    region: node.region,
    operatingSystem: (node.operating_system ?? "linux") as OperatingSystem,
    usageType: node.purchase_option === "spot" ? "spot" : "on_demand",
  };
}

/** Each node with its hourly price on `basis` (null when the catalog has no row for its type) and capacity. */
export async function priceNodes(catalogs: ComputeCatalogs, accountId: string, nodes: NodeRow[], basis: SavingsBasis): Promise<PricedNode[]> {
  const loaded = new Map<string, Promise<InstanceTypeRow[]>>();
  const catalogOf = (key: CatalogKey) => {
    const id = [key.provider, key.region, key.operatingSystem, key.usageType].join("\u0000");
    let rows = loaded.get(id);
    if (!rows) {
      rows = catalogs.catalog(key);
      loaded.set(id, rows);
    }
    return rows;
  };
  return Promise.all(
    nodes.map(async (node) => {
      const key = catalogKeyOf(accountId, node);
      const catalog = key ? await catalogOf(key) : [];
      const row = node.instance_type ? (catalog.find((r) => r.instance_type === node.instance_type) ?? null) : null;
      return {
        node,
        row,
        catalog,
        hourly: row ? hourlyOf(row, basis) : null,
        cores: node.cpu_cores ?? row?.cpu_cores ?? null,
        ram: node.ram_gb ?? row?.ram_gb ?? null,
        gpus: node.gpu_count ?? row?.gpu_count ?? 0,
      };
    }),
  );
}

export const ZERO = new Decimal(0);
