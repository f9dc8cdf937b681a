import type {
  ApiKeyRole,
  CreateApiKeyResponse,
  CreateWebhookResponse,
  OrganizationSettings,
  Role,
  SpendAllocationRule,
  SpendAllocationRules,
  User,
  Webhook,
  WebhookEventType,
} from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { tenantKeys } from "../../app/keys";
import { spendKeys } from "../spend/keys";
import { settingsKeys } from "./keys";

/** The organization's settings; a save puts the stored settings in the cache. */
export function useOrganizationSettings(orgId: string | undefined) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: settingsKeys.organization(orgId), queryFn: () => client.main.getSettings({ params: { org_id: orgId ?? "" } }) });
  const save = useMutation({
    mutationFn: (body: OrganizationSettings) => client.main.updateSettings({ params: { org_id: orgId ?? "" }, body }),
    onSuccess: (data) => queryClient.setQueryData(settingsKeys.organization(orgId), data),
  });
  return { settings, save };
}

export interface ApiKeyForm {
  name: string;
  role: ApiKeyRole;
  tenant_ids: string[];
}

/** The organization's API keys (owners and admins); create one (`onCreated` gets it, secret and all), revoke one. */
export function useApiKeys(enabled: boolean, onCreated: (key: CreateApiKeyResponse) => void) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.apiKeys() });
  const list = useQuery({ queryKey: settingsKeys.apiKeys(), queryFn: () => client.main.listApiKeys({ query: { limit: 500 } }), enabled });
  const create = useMutation({
    mutationFn: (form: ApiKeyForm) =>
      client.main.createApiKey({ body: { name: form.name, role: form.role, ...(form.role === "admin" ? {} : { tenant_ids: form.tenant_ids }) } }),
    onSuccess: (key) => {
      onCreated(key);
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => client.main.revokeApiKey({ params: { id } }), onSuccess: refresh });
  return { list, create, revoke };
}

/** The organization's users and (for managers) its open invitations; a change to a user refreshes both. */
export function usePeople(orgId: string | undefined, manager: boolean) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const users = useQuery({
    queryKey: settingsKeys.users(orgId),
    queryFn: () => client.main.listUsers({ params: { org_id: orgId ?? "" }, query: { limit: 500 } }),
  });
  const invitations = useQuery({
    queryKey: settingsKeys.invitations(orgId),
    queryFn: () => client.main.listInvitations({ params: { org_id: orgId ?? "" }, query: { limit: 500 } }),
    enabled: manager,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.people(orgId) });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Partial<Pick<User, "role" | "active" | "tenant_ids">> }) =>
      client.main.updateUser({ params: { org_id: orgId ?? "", id }, body }),
    onSuccess: refresh,
  });
  return { users, invitations, update, refresh };
}

export interface InvitationForm {
  email: string;
  role: Role;
  tenant_ids: string[];
}

/** Invites a user (members and viewers with their tenants); `onSent` runs after. */
export function useInvite(orgId: string, onSent: () => void) {
  const { client } = useApp();
  return useMutation({
    mutationFn: (form: InvitationForm) =>
      client.main.createInvitation({
        params: { org_id: orgId },
        body: { email: form.email.trim(), role: form.role, ...(form.role === "member" || form.role === "viewer" ? { tenant_ids: form.tenant_ids } : {}) },
      }),
    onSuccess: onSent,
  });
}

/** Creates a tenant (`onCreated` runs after) or archives one; either refreshes the tenant list of every page. */
export function useTenantChanges(orgId: string | undefined, onCreated: () => void) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: tenantKeys.all });
  const create = useMutation({
    mutationFn: (name: string) => client.main.createTenant({ params: { org_id: orgId ?? "" }, body: { name } }),
    onSuccess: () => {
      onCreated();
      refresh();
    },
  });
  const archive = useMutation({
    mutationFn: (id: string) => client.main.updateTenant({ params: { org_id: orgId ?? "", tenant_id: id }, body: { archived: true } }),
    onSuccess: refresh,
  });
  return { create, archive };
}

export interface WebhookForm {
  url: string;
  description: string;
  events: WebhookEventType[];
}

/**
 * The organization's webhooks (owners and admins): register one (`onCreated` gets it with its
 * secret), delete, pause or resume one, send a test ping (`onPinged` gets the webhook's id, whose
 * delivery log is then refreshed).
 */
export function useWebhooks(
  orgId: string,
  enabled: boolean,
  { onCreated, onPinged }: { onCreated(hook: CreateWebhookResponse): void; onPinged(id: string): void },
) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.webhooks(orgId) });
  const list = useQuery({
    queryKey: settingsKeys.webhooks(orgId),
    queryFn: () => client.main.listWebhooks({ params: { org_id: orgId }, query: { limit: 100 } }),
    enabled: enabled && !!orgId,
  });
  const create = useMutation({
    mutationFn: (form: WebhookForm) =>
      client.main.createWebhook({
        params: { org_id: orgId },
        body: { url: form.url.trim(), events: form.events, ...(form.description.trim() ? { description: form.description.trim() } : {}) },
      }),
    onSuccess: (hook) => {
      onCreated(hook);
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => client.main.deleteWebhook({ params: { org_id: orgId, id } }), onSuccess: refresh });
  const toggle = useMutation({
    mutationFn: (hook: Webhook) => client.main.updateWebhook({ params: { org_id: orgId, id: hook.id }, body: { active: !hook.active } }),
    onSuccess: refresh,
  });
  const ping = useMutation({
    mutationFn: (id: string) => client.main.testWebhook({ params: { org_id: orgId, id } }),
    onSuccess: (_, id) => {
      onPinged(id);
      queryClient.invalidateQueries({ queryKey: settingsKeys.deliveries(id) });
    },
  });
  return { list, create, remove, toggle, ping };
}

/** A webhook's delivery log, polled every 2 s while a delivery is pending. */
export function useDeliveries(orgId: string, id: string) {
  const { client } = useApp();
  return useQuery({
    queryKey: settingsKeys.deliveries(id),
    queryFn: () => client.main.listWebhookDeliveries({ params: { org_id: orgId, id }, query: { limit: 50 } }),
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? 2000 : false),
  });
}

/**
 * How imported bills are allocated (owners and admins): the rules (a save, whose stored rules
 * `onSaved` gets, re-allocates imported lines), the imports and import sessions (a delete removes
 * an import's lines). Either changes the spend, so both refresh it.
 */
export function useAllocation(orgId: string, enabled: boolean, onSaved: (stored: SpendAllocationRules) => void) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const on = enabled && !!orgId;
  const rules = useQuery({
    queryKey: settingsKeys.allocationRules(orgId),
    queryFn: () => client.main.getAllocationRules({ params: { org_id: orgId } }),
    enabled: on,
  });
  const imports = useQuery({
    queryKey: settingsKeys.spendImports(orgId),
    queryFn: () => client.main.listSpendImports({ params: { org_id: orgId }, query: { limit: 50 } }),
    enabled: on,
  });
  const sessions = useQuery({
    queryKey: settingsKeys.importSessions(orgId),
    queryFn: () => client.main.listSpendImportSessions({ params: { org_id: orgId }, query: { limit: 20 } }),
    enabled: on,
  });
  const save = useMutation({
    mutationFn: (body: { rules: SpendAllocationRule[] }) => client.main.putAllocationRules({ params: { org_id: orgId }, body }),
    onSuccess: (stored) => {
      onSaved(stored);
      queryClient.invalidateQueries({ queryKey: settingsKeys.allocationRules(orgId) });
      queryClient.invalidateQueries({ queryKey: spendKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => client.main.deleteSpendImport({ params: { org_id: orgId, id } }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: settingsKeys.spendImports(orgId) });
      queryClient.invalidateQueries({ queryKey: settingsKeys.importSessions(orgId) });
      queryClient.invalidateQueries({ queryKey: spendKeys.all });
    },
  });
  return { rules, imports, sessions, save, remove };
}
