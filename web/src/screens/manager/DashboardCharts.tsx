import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';

type UPlot = typeof uPlot;
type Options = (width: number, library: UPlot) => uPlot.Options;

let library: Promise<UPlot> | undefined;
/** uPlot comes with the first chart drawn, so the manager's other sections do not download it. */
function loadUPlot(): Promise<UPlot> {
  library ??= import('uplot').then((module) => module.default);
  return library;
}

/**
 * Colours that keep their contrast on a phone in the sun (each past 7:1 on white), and the usual's
 * line dashed as well as orange, so the two lines part without colour.
 */
const INK = '#1b1f24';
const GRID = '#c9ced6';
const TODAY = '#1f3a5f';
const USUAL = '#8a4b00';
const FONT = '600 13px system-ui, sans-serif';

/**
 * A uPlot canvas as wide as its box, drawn again when the box changes width (a phone turned) or the
 * figures change. The canvas is hidden from screen readers: each chart gives its own text
 * alternative beside it.
 */
function Plot({
  options,
  data,
  signature,
}: {
  options: Options;
  data: uPlot.AlignedData;
  /** What the drawing shows, as text: it is drawn again only when this changes, not on every render. */
  signature: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef({ options, data });
  latest.current = { options, data };
  useEffect(() => {
    const { options, data } = latest.current;
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let gone = false;
    loadUPlot()
      .then((UPlot) => {
        if (gone) return;
        let width = element.clientWidth;
        plot = new UPlot(options(width, UPlot), data, element);
        observer = new ResizeObserver(() => {
          if (element.clientWidth === width) return;
          width = element.clientWidth;
          plot?.destroy();
          plot = new UPlot(options(width, UPlot), data, element);
        });
        observer.observe(element);
      })
      // Offline before the library was ever fetched: the figures stay, as the text beside the chart.
      .catch(() => undefined);
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [signature]);
  return <div class="chart-canvas" ref={box} aria-hidden="true" />;
}

const axis = (extra: uPlot.Axis): uPlot.Axis => ({
  stroke: INK,
  font: FONT,
  grid: { stroke: GRID, width: 1 },
  ticks: { stroke: GRID, width: 1 },
  ...extra,
});

/**
 * Sales by hour (solid) against the usual (dashed). `hours` are the hours' positions in the day and
 * `hourLabel` names a position as 24 h "19:00".
 */
export function HourChart({
  hours,
  today,
  usual,
  hourLabel,
  amountLabel,
  alternative,
}: {
  hours: number[];
  today: number[];
  usual: number[];
  hourLabel: (hour: number) => string;
  amountLabel: (amount: number) => string;
  alternative: ComponentChildren;
}) {
  const options: Options = (width) => ({
    width,
    height: 220,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: false }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      axis({ space: 48, incrs: [1, 2, 3, 4, 6], values: (_plot, splits) => splits.map(hourLabel) }),
      axis({ size: 64, values: (_plot, splits) => splits.map(amountLabel) }),
    ],
    series: [
      {},
      { stroke: TODAY, width: 3, points: { show: false } },
      { stroke: USUAL, width: 2.5, dash: [8, 6], points: { show: false } },
    ],
  });
  return (
    <div class="chart">
      <Plot
        options={options}
        data={[hours, today, usual]}
        signature={JSON.stringify([hours, today, usual, hourLabel(0), amountLabel(1000)])}
      />
      {alternative}
    </div>
  );
}

/**
 * Horizontal bars, one per name, largest first as given: names read across on a phone, where
 * upright bars would crowd their labels.
 */
export function BarChart({
  names,
  values,
  amountLabel,
  alternative,
}: {
  names: string[];
  values: number[];
  amountLabel: (amount: number) => string;
  alternative: ComponentChildren;
}) {
  const indexes = names.map((_name, index) => index);
  const longest = Math.max(...names.map((name) => name.length), 4);
  const options: Options = (width, UPlot) => ({
    width,
    height: 48 + names.length * 40,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, ori: 1, dir: -1, range: [-0.5, names.length - 0.5] },
      y: { ori: 0, range: (_plot, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
    },
    axes: [
      axis({
        side: 3,
        size: Math.min(8 * longest + 16, width * 0.4),
        grid: { show: false },
        splits: () => indexes,
        values: (_plot, splits) => splits.map((index) => names[index] ?? ''),
      }),
      axis({ side: 2, space: 70, values: (_plot, splits) => splits.map(amountLabel) }),
    ],
    series: [
      {},
      {
        stroke: TODAY,
        fill: TODAY,
        width: 0,
        points: { show: false },
        paths: UPlot.paths.bars?.({ size: [0.6, 28] }),
      },
    ],
  });
  return (
    <div class="chart">
      <Plot
        options={options}
        data={[indexes, values]}
        signature={JSON.stringify([names, values, amountLabel(1000)])}
      />
      {alternative}
    </div>
  );
}

/** The legend's sample of each line: solid for today, dashed for the usual, drawn in CSS. */
export function LineKey({ kind, label }: { kind: 'today' | 'usual'; label: string }) {
  return (
    <span class="chart-key">
      <span class={`chart-key-line ${kind}`} aria-hidden="true" />
      {label}
    </span>
  );
}
