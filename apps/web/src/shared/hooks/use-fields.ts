import { type ChangeEvent, useState } from "react";

/**
 * A form's text fields as one state: `field(name)` gives an input's or select's `value` and `onChange`,
 * `clear(...names)` empties some (after a save), `setForm` sets the whole form.
 */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const field = <K extends keyof F>(name: K) => ({
    value: form[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });
  const clear = (...names: (keyof F)[]) => setForm((f) => ({ ...f, ...Object.fromEntries(names.map((name) => [name, ""])) }));
  return { form, setForm, field, clear };
}
