export { FOCUS_VERSIONS, type FocusVersion } from "./columns";
export { readFocusCsv } from "./csv";
export { FocusFormatError, type FocusLine, FocusTooLargeError } from "./line";
export { readFocusParquet } from "./parquet";
export { tagValueText } from "./values";
export type { FocusReadInfo } from "./rows";
export { FOCUS_EXPORT_COLUMNS, type FocusExportLine, type FocusExportOptions, focusCsv } from "./writer";
