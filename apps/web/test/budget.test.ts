import type { Budget } from "@cloudcost/contracts";
import { describe, expect, it } from "vitest";
import { barScale, budgetBody, budgetDisplay, budgetToForm, emptyBudgetForm } from "../src/features/budgets/budget";

const status = (spent: string, forecast: string, state: "ok" | "warning" | "exceeded", crossed: Budget["thresholds"] = []) => ({
  amount: "1000",
  status: { period_start: "2026-11-01T00:00:00.000Z", period_end: "2026-12-01T00:00:00.000Z", spent, forecast, percent_used: "0", state, crossed },
});

describe("budget state and burn", () => {
  it("is on track when nothing crossed", () => {
    expect(budgetDisplay(status("250", "600", "ok"))).toMatchObject({ tone: "ok", label: "On track", spentPercent: 25, forecastPercent: 60 });
  });
  it("tells a forecast-only warning from spending past a threshold", () => {
    expect(budgetDisplay(status("500", "1200", "warning", [{ percent: 100, kind: "forecast" }]))).toMatchObject({
      tone: "forecast",
      label: "Forecast past 100 %",
    });
    expect(
      budgetDisplay(
        status("850", "1200", "warning", [
          { percent: 50, kind: "actual" },
          { percent: 80, kind: "actual" },
          { percent: 100, kind: "forecast" },
        ]),
      ),
    ).toMatchObject({ tone: "warning", label: "Spent past 80 %" });
  });
  it("is over budget when the API says exceeded, and the bar grows past 100 % to hold it", () => {
    const d = budgetDisplay(status("1330.3333", "2000", "exceeded"));
    expect(d).toMatchObject({ tone: "over", label: "Over budget", spentPercent: 133.03, forecastPercent: 200 });
    expect(d.description).toBe("Over budget: spent 133 % of the budget, forecast 200 % by the end of the period");
    expect(barScale(d)).toBe(200);
    expect(barScale(budgetDisplay(status("10", "20", "ok")))).toBe(100);
  });
});

describe("the budget dialog's body", () => {
  it("keeps the amount exact and drops empty filters", () => {
    const form = { ...emptyBudgetForm(), name: " Prod ", amount: "1,500.1234567891", filters: { provider: "aws, gcp,,aws", region: " " } };
    expect(budgetBody(form)).toEqual({
      body: {
        name: "Prod",
        period: "monthly",
        amount: "1500.1234567891",
        currency: "USD",
        metric: "billed_cost",
        thresholds: [
          { percent: 80, kind: "actual" },
          { percent: 100, kind: "forecast" },
        ],
        filters: { provider: ["aws", "gcp"] },
      },
    });
  });
  it("sends a charge frequency filter and the contracted cost metric as the API takes them", () => {
    const form = { ...emptyBudgetForm(), name: "Usage only", amount: "100", metric: "contracted_cost" as const, filters: { charge_frequency: "Usage-Based" } };
    expect(budgetBody(form)).toMatchObject({ body: { metric: "contracted_cost", filters: { charge_frequency: ["Usage-Based"] } } });
  });
  it("answers the first problem in words", () => {
    const base = { ...emptyBudgetForm(), name: "B", amount: "10" };
    expect(budgetBody({ ...base, name: "  " })).toEqual({ error: "Give the budget a name." });
    expect(budgetBody({ ...base, amount: "0" })).toHaveProperty("error");
    expect(budgetBody({ ...base, amount: "1e3" })).toHaveProperty("error");
    expect(budgetBody({ ...base, currency: "dollars" })).toHaveProperty("error");
    expect(budgetBody({ ...base, thresholds: [{ percent: "80.123", kind: "actual" }] })).toHaveProperty("error");
    expect(
      budgetBody({
        ...base,
        thresholds: [
          { percent: "80", kind: "actual" },
          { percent: "80.0", kind: "actual" },
        ],
      }),
    ).toEqual({
      error: "The actual threshold 80.0 % is listed twice.",
    });
  });
  it("round-trips a budget read from the API", () => {
    const fields = {
      name: "B",
      period: "quarterly",
      amount: "99.5",
      currency: "EUR",
      metric: "list_cost",
      filters: { model: ["gpt-4o"] },
      thresholds: [{ percent: 90.5, kind: "forecast" }],
    };
    expect(budgetBody(budgetToForm(fields as unknown as Budget))).toEqual({ body: fields });
  });
});
