import { type RecipientStatement, STATEMENT_SECTIONS, type StatementSection } from "@cloudcost/contracts";
import PDFDocument from "pdfkit";

const TITLES: Record<StatementSection, string> = {
  usage: "Usage",
  shared: "Shared costs",
  commitment_fees: "Commitment fees",
  credits: "Credits",
  tax: "Tax",
  adjustments: "Adjustments",
  corrections: "Corrections",
};

/** A4 in points, and the one page's layout. */
const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 50;
const ROW = 12;
/** The rows the page has room for below the header and above the total. */
const ROWS = Math.floor((HEIGHT - 2 * MARGIN - 150) / ROW);

/** A cell cut to `max` characters, so that every row stays on its line. */
const cut = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * The recipient's statement as a one-page A4 PDF (pdfkit, the standard Helvetica fonts built in,
 * content streams uncompressed): the organization, period, number, status and recipient, each
 * section's lines, and the total. Sections longer than the page holds end with a line saying how
 * many more the CSV lists (every section keeps room for its title and a line); the total is
 * always the statement's.
 */
export function statementPdf(statement: RecipientStatement): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [WIDTH, HEIGHT],
    margin: MARGIN,
    compress: false,
    autoFirstPage: true,
    info: { Title: `Statement ${statement.number} - ${statement.recipient}`, Producer: "cloudcost", Creator: "cloudcost" },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const at = (text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) => doc.text(text, x, y, { lineBreak: false, ...options });
  let y = MARGIN;
  doc.font("Helvetica-Bold").fontSize(16);
  at(`Statement ${statement.number}`, MARGIN, y);
  y += 26;
  doc.font("Helvetica").fontSize(10);
  const header: [string, string][] = [
    ["Organization", statement.organization.name],
    ["Period", statement.period],
    ["Status", statement.status],
    ["Recipient", `${statement.recipient} (${statement.by})`],
    ["Metric", `${statement.metric}, ${statement.currency}`],
  ];
  for (const [name, value] of header) {
    at(`${name}:`, MARGIN, y);
    at(cut(value, 80), MARGIN + 90, y);
    y += 14;
  }
  y += 8;
  doc.fontSize(9);
  const amountX = WIDTH - MARGIN - 120;
  const shown = STATEMENT_SECTIONS.filter((section) => statement.sections[section].length > 0);
  let left = ROWS;
  shown.forEach((section, index) => {
    const lines = statement.sections[section];
    // Every later section keeps room for its title and one line.
    let rows = left - 2 * (shown.length - index - 1);
    doc.font("Helvetica-Bold");
    at(TITLES[section], MARGIN, y);
    y += ROW;
    left -= 1;
    rows -= 1;
    doc.font("Helvetica");
    lines.forEach((line, i) => {
      if (rows <= 0) return;
      if (rows === 1 && i < lines.length - 1) {
        at(`... ${lines.length - i} more lines (see the CSV)`, MARGIN + 10, y);
        rows = 0;
        left -= 1;
        y += ROW;
        return;
      }
      const detail = line.method ? ` (${line.source ?? "unallocated"}, ${line.method}${line.ratio ? `, ratio ${line.ratio}` : ""})` : "";
      at(cut(`${line.description}${detail}`, 75), MARGIN + 10, y);
      at(line.amount, amountX, y, { width: 120, align: "right" });
      y += ROW;
      left -= 1;
      rows -= 1;
    });
  });
  y += 6;
  doc
    .moveTo(MARGIN, y)
    .lineTo(WIDTH - MARGIN, y)
    .stroke();
  y += 6;
  doc.font("Helvetica-Bold").fontSize(11);
  at("Total", MARGIN, y);
  at(`${statement.total} ${statement.currency}`, amountX - 80, y, { width: 200, align: "right" });
  doc.end();
  return done;
}
