import { removeTemplates } from "./templates";

export default async function globalTeardown(): Promise<void> {
  await removeTemplates();
}
