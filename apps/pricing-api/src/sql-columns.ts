export { columnsOf, type CheckedStatement, type Columns, type PgType, type RowOf } from "@cloudcost/db";
