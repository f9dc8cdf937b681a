// TEMPORARY SHIM: replaced once issue 5's identity lands.
let n = 0;
export async function benchCredentials(_ctx: unknown, _org?: unknown) {
  n++;
  return { headers: { authorization: "Bearer x" }, tenantId: `ten_bench${n}`, organizationId: `org_ten_bench${n}` };
}
