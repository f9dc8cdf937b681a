import { STATEMENT_SECTIONS, type RecipientStatement } from "@cloudcost/contracts";

/** A text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a leading `'` (amounts are numbers and never do). */
const FORMULA_START = /^[=+\-@\t\r]/;
const text = (value: string | null): string => {
  if (value === null) return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The recipient's statement as CSV: `section,description,source,method,ratio,amount`, one row per line in section order, then a total row. */
export function statementCsv(statement: RecipientStatement): string {
  const rows = ["section,description,source,method,ratio,amount"];
  for (const section of STATEMENT_SECTIONS)
    for (const line of statement.sections[section])
      rows.push([section, text(line.description), text(line.source), text(line.method), line.ratio ?? "", line.amount].join(","));
  rows.push(["total", "Total", "", "", "", statement.total].join(","));
  return `${rows.join("\r\n")}\r\n`;
}

/** The file name of a recipient's statement: its number and the recipient, reduced to safe characters. */
export const statementFileName = (statement: RecipientStatement, extension: string): string =>
  `statement-${statement.number}-${statement.recipient.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80)}.${extension}`;
