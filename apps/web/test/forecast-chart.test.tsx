import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ForecastChart } from "../src/features/spend/components/ForecastChart";
import { forecastCurve } from "../src/features/spend/spend";

afterEach(cleanup);

// Two days spent (400 each) and two days left at 250 between 130 and 370 (the API's rows).
const rows = [
  { day: "2026-12-26", actual: "400", expected: null, expected_low: null, expected_high: null },
  { day: "2026-12-27", actual: "400", expected: null, expected_low: null, expected_high: null },
  { day: "2026-12-28", actual: null, expected: "250", expected_low: "130", expected_high: "370" },
  { day: "2026-12-29", actual: null, expected: "250", expected_low: "130", expected_high: "370" },
];

describe("forecast chart", () => {
  it("draws spent as a line, the forecast as a dashed line and its 80 % interval as a band, and says it in words", () => {
    render(
      <ForecastChart
        points={forecastCurve(rows, "2026-12-27")}
        currency="USD"
        title="Spent and forecast"
        summary="$800 spent through 2026-12-27; forecast $1,300, 80 % interval $1,060 to $1,540"
      />,
    );
    expect(screen.getByRole("img", { name: /forecast \$1,300, 80 % interval \$1,060 to \$1,540/ })).toBeTruthy();
    // The band runs from the last day spent (Dec 27) to the end along the high totals and back along the low ones: 3 points each way.
    const band = screen.getByTestId("forecast-band").getAttribute("d") ?? "";
    expect(band.match(/[ML]/g)).toHaveLength(6);
    expect(band.endsWith("Z")).toBe(true);
    expect(screen.getByTestId("forecast-line").getAttribute("d")?.match(/[ML]/g)).toHaveLength(3);
    expect(screen.getByTestId("spent-line").getAttribute("d")?.match(/[ML]/g)).toHaveLength(2);
    expect(screen.getByText("80 % interval")).toBeTruthy();
  });

  it("has no band when no day is left", () => {
    render(<ForecastChart points={forecastCurve(rows.slice(0, 2), "2026-12-27")} currency="USD" title="Spent" summary="$800 spent" />);
    expect(screen.queryByTestId("forecast-band")).toBeNull();
    expect(screen.getByTestId("spent-line")).toBeTruthy();
  });
});
