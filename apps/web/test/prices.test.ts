import { describe, expect, it } from "vitest";
import { modelIdentity, versionSeries } from "../src/features/prices/prices";

const row = (id: string, model: string, from: string, to: string | null, region: string | null = null) => ({
  id,
  provider: "openai",
  publisher: null,
  host: null,
  model,
  region,
  token_bucket: "input" as const,
  effective_from: from,
  effective_to: to,
});

describe("price version history", () => {
  it("groups versions by identity, newest first, with the open one found", () => {
    const rows = [
      row("a1", "gpt-4o", "2026-01-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"),
      row("a2", "gpt-4o", "2026-06-01T00:00:00.000Z", null),
      row("b1", "gpt-4o", "2026-02-01T00:00:00.000Z", null, "eu"),
      row("c1", "a-model", "2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"),
    ];
    const series = versionSeries(rows, modelIdentity);
    expect(series.map((s) => [s.key, s.versions.map((v) => v.id), s.open?.id])).toEqual([
      ["openai · a-model · input", ["c1"], undefined],
      ["openai · gpt-4o · eu · input", ["b1"], "b1"],
      ["openai · gpt-4o · input", ["a2", "a1"], "a2"],
    ]);
  });
});
