import { Empty } from "../../../shared/components/status";

/** What a member or viewer sees on a statement page: statements show the whole organization's figures. */
export function OwnersOnly({ title, hint = "" }: { title: string; hint?: string }) {
  return (
    <>
      <h1>{title}</h1>
      <Empty>Statements are for owners and admins of the organization{hint}.</Empty>
    </>
  );
}
