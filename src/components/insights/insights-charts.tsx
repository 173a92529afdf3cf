import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTheme } from "@/lib/theme";
import { PLATFORMS } from "@convex/lib/constants";
import { dayLabel, hourLabel, METRIC_LABELS, SHOWN_METRICS, type ShopInsights } from "./insights-words";

/**
 * The dashboard's insight charts (recharts, loaded with the dashboard only). Each chart is a picture for
 * the eye, hidden from screen readers, followed by a table of the same figures that only they read.
 */

const COLOURS = {
  light: { view: "#15803d", click: "#1d4ed8", grid: "#cbd5e1", text: "#475569", tip: "#ffffff" },
  dark: { view: "#4ade80", click: "#60a5fa", grid: "#334155", text: "#cbd5e1", tip: "#0f172a" },
};

function useColours() {
  const [theme] = useTheme();
  return COLOURS[theme];
}

function ChartFigure({
  id,
  title,
  table,
  children,
}: {
  id: string;
  title: string;
  table: ReactNode;
  children: ReactNode;
}) {
  return (
    <figure
      aria-labelledby={id}
      className="min-w-0 rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <figcaption id={id} className="font-semibold">
        {title}
      </figcaption>
      <div aria-hidden="true" className="mt-3 h-56 min-w-0">
        {children}
      </div>
      {table}
    </figure>
  );
}

function FiguresTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
}) {
  // Hidden by a block around it: a table is never narrower than its cells, so `sr-only` on the table
  // itself left a 960 px box that scrolled a phone's page sideways.
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((cell) => (
              <th key={cell} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([first, ...rest]) => (
            <tr key={first}>
              <th scope="row">{first}</th>
              {rest.map((cell, index) => (
                <td key={head[index + 1]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const METRIC_HEAD = SHOWN_METRICS.map((metric) => METRIC_LABELS[metric]);
const metricCells = (counts: ShopInsights["totals"]) => SHOWN_METRICS.map((metric) => counts[metric]);

function axes(colours: ReturnType<typeof useColours>, dataKey: string, format: (value: unknown) => string) {
  return [
    <CartesianGrid key="grid" stroke={colours.grid} strokeDasharray="3 3" vertical={false} />,
    <XAxis
      key="x"
      dataKey={dataKey}
      tickFormatter={format}
      tick={{ fill: colours.text, fontSize: 12 }}
      stroke={colours.grid}
      minTickGap={12}
    />,
    <YAxis
      key="y"
      allowDecimals={false}
      tick={{ fill: colours.text, fontSize: 12 }}
      stroke={colours.grid}
      width={32}
    />,
    <Tooltip
      key="tip"
      labelFormatter={format}
      contentStyle={{
        background: colours.tip,
        borderColor: colours.grid,
        color: colours.text,
        borderRadius: 8,
      }}
    />,
    <Legend key="legend" wrapperStyle={{ color: colours.text, fontSize: 12 }} />,
  ];
}

/**
 * Page views and click-throughs, day by day. The views' line is wide and the clicks' dashed over it,
 * so a day where they are equal still shows both.
 */
export function DailyChart({ insights }: { insights: ShopInsights }) {
  const colours = useColours();
  return (
    <ChartFigure
      id="insights-daily"
      title="Day by day"
      table={
        <FiguresTable
          caption="Counts by day, last 30 days"
          head={["Day", ...METRIC_HEAD]}
          rows={insights.byDay.map((day) => [dayLabel(day.day), ...metricCells(day)])}
        />
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart
          accessibilityLayer={false}
          data={insights.byDay}
          margin={{ top: 4, right: 8, left: 0, bottom: 0 }}
        >
          {axes(colours, "day", (day) => dayLabel(String(day)))}
          <Line
            type="monotone"
            dataKey="view"
            name={METRIC_LABELS.view}
            stroke={colours.view}
            strokeWidth={4}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="click"
            name={METRIC_LABELS.click}
            stroke={colours.click}
            strokeWidth={2}
            strokeDasharray="6 3"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** Page views and click-throughs by hour of the day, in the shop's zone. */
export function HourChart({ insights }: { insights: ShopInsights }) {
  const colours = useColours();
  return (
    <ChartFigure
      id="insights-hourly"
      title="By hour of day"
      table={
        <FiguresTable
          caption="Counts by hour of day, last 30 days"
          head={["Hour", ...METRIC_HEAD]}
          rows={insights.byHour.map((hour) => [hourLabel(hour.hour), ...metricCells(hour)])}
        />
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={insights.byHour}
          margin={{ top: 4, right: 8, left: 0, bottom: 0 }}
        >
          {axes(colours, "hour", (hour) => hourLabel(Number(hour)))}
          <Bar dataKey="view" name={METRIC_LABELS.view} fill={colours.view} isAnimationActive={false} />
          <Bar dataKey="click" name={METRIC_LABELS.click} fill={colours.click} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

/** Click-throughs by platform, most first. */
export function PlatformChart({ insights }: { insights: ShopInsights }) {
  const colours = useColours();
  const data = insights.platforms.map((row) => ({ ...row, label: PLATFORMS[row.platform].label }));
  return (
    <ChartFigure
      id="insights-platforms"
      title="Click-throughs by platform"
      table={
        <FiguresTable
          caption="Click-throughs by platform, last 30 days"
          head={["Platform", "Click-throughs"]}
          rows={data.map((row) => [row.label, row.clicks])}
        />
      }
    >
      {data.length === 0 ? (
        <p className="grid h-full place-items-center text-sm text-slate-500 dark:text-slate-400">
          No click-throughs yet.
        </p>
      ) : (
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={data}
            layout="vertical"
            margin={{ top: 4, right: 8, left: 8, bottom: 0 }}
          >
            <CartesianGrid stroke={colours.grid} strokeDasharray="3 3" horizontal={false} />
            <XAxis
              type="number"
              allowDecimals={false}
              tick={{ fill: colours.text, fontSize: 12 }}
              stroke={colours.grid}
            />
            <YAxis
              type="category"
              dataKey="label"
              tick={{ fill: colours.text, fontSize: 12 }}
              stroke={colours.grid}
              width={96}
            />
            <Tooltip
              contentStyle={{
                background: colours.tip,
                borderColor: colours.grid,
                color: colours.text,
                borderRadius: 8,
              }}
            />
            <Bar dataKey="clicks" name={METRIC_LABELS.click} fill={colours.click} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartFigure>
  );
}
