import type { ChangeEvent, FormEvent, ReactNode } from "react";
import { ErrorNote } from "../../../shared/components/status";
import type { PriceRights } from "../hooks";
import { Section, type Versioned, VersionList, type VersionListProps } from "./VersionTable";

/** What the hooks of a versioned price kind give (useModelPrices, useComputePrices, useCommitmentRates). */
interface PriceKindBook<T extends Versioned, E> {
  list: VersionListProps<T>["query"];
  register: { mutate(entry: E, options: { onSuccess(): void }): void; isPending: boolean; error: Error | null };
  close: VersionListProps<T>["close"];
  refresh(): void;
}

/**
 * One versioned kind of the price book: the form that registers an entry (for who may register), then
 * every version of every entry, each open one with Close (for who may close). The kind's page gives
 * what differs: its fields, the entry they make, and how a row reads; `list.what` names an entry in
 * the register button and the errors.
 */
export function PriceKind<T extends Versioned, E>({
  id,
  title,
  intro,
  rights,
  book,
  form,
  list,
}: {
  id: string;
  title: string;
  /** Above the form. */
  intro?: ReactNode;
  rights: PriceRights;
  book: PriceKindBook<T, E>;
  form: {
    label: string;
    /** A note at the top of the form. */
    note?: ReactNode;
    fields: ReactNode;
    /** The entry the fields make. */
    entry(): E;
    /** Once the entry is registered (before the list is asked again): clear what the next entry will not share. */
    registered(): void;
  };
  list: Omit<VersionListProps<T>, "query" | "canClose" | "close">;
}) {
  const { register, refresh } = book;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate(form.entry(), {
      onSuccess: () => {
        form.registered();
        refresh();
      },
    });
  };
  return (
    <Section id={id} title={title}>
      {intro}
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label={form.label}>
          {form.note && <p className="muted">{form.note}</p>}
          {form.fields}
          <button type="submit" className="primary" disabled={register.isPending}>
            Register {list.what}
          </button>
          {register.error && <ErrorNote error={register.error} title={`Could not register the ${list.what}`} />}
        </form>
      )}
      <VersionList query={book.list} {...list} canClose={rights.close} close={book.close} />
    </Section>
  );
}

interface FieldProps {
  value: string;
  onChange(e: ChangeEvent<HTMLInputElement | HTMLSelectElement>): void;
}

/** The provider of an entry (aws, azure, gcp, a model host…). */
export function ProviderField(props: FieldProps) {
  return (
    <label>
      Provider
      <input required maxLength={256} {...props} />
    </label>
  );
}

/** The region of an entry; empty for every region. */
export function RegionField(props: FieldProps) {
  return (
    <label>
      Region (optional)
      <input maxLength={256} {...props} />
    </label>
  );
}
