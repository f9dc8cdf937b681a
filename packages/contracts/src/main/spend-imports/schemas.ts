import { z } from "zod";
import { Currency, queryInteger, ServiceId, TimestampOutput } from "../../common.js";

/** An exact amount as a decimal string: at most 10 decimal places, no exponent (sums of small charges exceed a JSON number). */
const ImportAmount = z.string().regex(/^-?\d+(\.\d{1,10})?$/, "must be a decimal string with at most 10 decimal places");

const IdList = z.array(z.string().trim().min(1).max(256)).min(1).max(1000);

export const SpendAllocationRule = z
  .strictObject({
    tenant_id: ServiceId,
    sub_account_ids: IdList.optional(),
    billing_account_ids: IdList.optional(),
    tag: z.strictObject({ key: z.string().min(1).max(256), values: IdList }).optional(),
  })
  .meta({
    id: "SpendAllocationRule",
    description:
      "Sends the import lines it matches to `tenant_id`. Every criterion given must match (a line's SubAccountId in `sub_account_ids`, " +
      "its BillingAccountId in `billing_account_ids`, its tag `tag.key` one of `tag.values`); a rule with no criterion matches every line.",
  });
export type SpendAllocationRule = z.infer<typeof SpendAllocationRule>;

export const SpendAllocationRules = z.strictObject({ rules: z.array(SpendAllocationRule).max(500) }).meta({
  id: "SpendAllocationRules",
  description: "The organization's allocation rules, in order: the first rule a line matches wins; a line no rule matches is unallocated.",
});
export type SpendAllocationRules = z.infer<typeof SpendAllocationRules>;

export const SpendAllocationRulesUpdated = SpendAllocationRules.extend({
  reallocated_lines: z.number().int().min(0).meta({ description: "Stored import lines whose tenant changed under the new rules." }),
}).meta({ id: "SpendAllocationRulesUpdated", description: "The rules as stored, and how many stored import lines moved." });

/** The most parts a session may have (also the most data files of a manifest). */
export const SPEND_IMPORT_MAX_PARTS = 10_000;

export const ImportSessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -")
  .meta({ id: "ImportSessionId", description: "The client's id of an import session." });

const PartNumber = queryInteger(1, SPEND_IMPORT_MAX_PARTS);

export const SpendImportQuery = z
  .strictObject({
    file_name: z.string().trim().min(1).max(255).optional(),
    session: ImportSessionId.optional(),
    part: PartNumber.optional(),
    parts: PartNumber.optional(),
  })
  .meta({
    id: "SpendImportQuery",
    description:
      "`file_name`: the name to record with the import (optional). `session`, `part` and `parts`: the file is part `part` of the " +
      "`parts` parts of the import session `session` (`parts` may be left out once the session's manifest fixed it); a manifest " +
      "(`application/json`) is posted with `session` only.",
  });

/** An AWS Data Exports `Manifest.json`: the data files, in part order, and the export's run. Other fields are ignored. */
export const SpendImportManifest = z
  .looseObject({
    executionId: z.string().trim().min(1).max(256).optional(),
    dataFiles: z
      .array(z.string().min(1).max(2048))
      .min(1, "must name at least one data file")
      .max(SPEND_IMPORT_MAX_PARTS, `must name at most ${SPEND_IMPORT_MAX_PARTS} data files`),
  })
  .meta({
    id: "SpendImportManifest",
    description:
      "An AWS Data Exports `Manifest.json` (at most 1 MiB): `dataFiles` (S3 URIs such as `s3://bucket/prefix/export-00001.csv.gz`) " +
      "fixes the session's part count; data file i (1-based) is then sent as `part=i`. `executionId` is kept on the session.",
  });
export type SpendImportManifest = z.infer<typeof SpendImportManifest>;

export const ImportState = z
  .enum(["pending", "completed"])
  .meta({ id: "ImportState", description: "A part waits (`pending`) until its session's last part arrives; a plain import is `completed`." });

export const SpendImport = z
  .object({
    id: ServiceId,
    created_at: TimestampOutput,
    file_name: z.string().nullable(),
    focus_version: z.enum(["1.0", "1.1", "1.2", "1.3"]),
    rows: z.number().int().min(0),
    allocated_rows: z.number().int().min(0),
    unallocated_rows: z.number().int().min(0),
    billing_account_ids: z.array(z.string()),
    billing_periods: z.array(z.object({ start: TimestampOutput, end: TimestampOutput })),
    totals: z.array(z.object({ currency: Currency, billed_cost: ImportAmount, effective_cost: ImportAmount })),
    superseded_import_ids: z.array(ServiceId),
    session: ImportSessionId.nullable().meta({ description: "The import session this file is a part of (null: a plain import)." }),
    part: z.number().int().min(1).nullable(),
    parts: z.number().int().min(1).nullable(),
    state: ImportState.meta({
      description: "`pending`: a part of a session still waiting for parts, whose lines are not counted anywhere yet; `completed`: its lines are stored.",
    }),
  })
  .meta({
    id: "SpendImport",
    description:
      "One imported FOCUS file: its rows, how many were allocated to tenants, the (billing account, billing period) pairs it holds, " +
      "its totals per currency, and the earlier imports whose lines for those pairs it replaced. For a part of a session, these are " +
      "the part's own (allocation counted again when the session commits; superseded imports are the session's, on its record).",
  });
export type SpendImport = z.infer<typeof SpendImport>;

const SessionPart = z.object({
  part: z.number().int().min(1),
  import_id: ServiceId,
  file_name: z.string().nullable(),
  rows: z.number().int().min(0),
  received_at: TimestampOutput,
});

export const SpendImportSession = z
  .object({
    id: ImportSessionId,
    parts: z.number().int().min(1),
    execution_id: z.string().nullable(),
    data_files: z.array(z.string()).nullable(),
    state: ImportState,
    created_at: TimestampOutput,
    expires_at: TimestampOutput.nullable().meta({ description: "When a pending session's parts are dropped (null once completed)." }),
    completed_at: TimestampOutput.nullable(),
    received_parts: z.array(SessionPart).meta({ description: "The parts received so far, by part number." }),
    rows: z.number().int().min(0),
    totals: z.array(z.object({ currency: Currency, billed_cost: ImportAmount, effective_cost: ImportAmount })),
    superseded_import_ids: z.array(ServiceId),
  })
  .meta({
    id: "SpendImportSession",
    description:
      "A multi-part import: its part count, the parts received so far, and (once completed) the earlier imports it replaced. " +
      "`rows` and `totals` sum the parts received.",
  });
export type SpendImportSession = z.infer<typeof SpendImportSession>;

export const SpendImportCreated = z.object({ import: SpendImport }).meta({ id: "SpendImportCreated", description: "One FOCUS import." });
export const SpendImportPosted = z.object({ import: SpendImport.optional(), session: SpendImportSession.optional() }).meta({
  id: "SpendImportPosted",
  description: "A file: `import` (and `session` for a part of a session, as it stands after the part). A manifest: `session` only.",
});
export const SpendImportSessionFound = z.object({ session: SpendImportSession }).meta({ id: "SpendImportSessionFound", description: "One import session." });
/** A session as the list shows it: everything but its manifest's data files (GET .../import-sessions/{id} has them). */
export const SpendImportSessionSummary = SpendImportSession.omit({ data_files: true }).meta({
  id: "SpendImportSessionSummary",
  description: "An import session as listed: its manifest's `data_files` are left out (`GET .../import-sessions/{id}` has them).",
});
export type SpendImportSessionSummary = z.infer<typeof SpendImportSessionSummary>;
export const SpendImportSessionPage = z.object({ items: z.array(SpendImportSessionSummary), next_cursor: z.string().nullable() }).meta({
  id: "SpendImportSessionPage",
  description: "A page of import sessions without their manifests' data files, newest first; `next_cursor` is null on the last page.",
});
export const SpendImportPage = z
  .object({ items: z.array(SpendImport), next_cursor: z.string().nullable() })
  .meta({ id: "SpendImportPage", description: "A page of FOCUS imports, newest first; `next_cursor` is null on the last page." });
