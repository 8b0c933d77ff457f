// A TypeScript user of the pipesim API, compiled (never run) by `tsc -p tests/types` in make test:
// the declarations must let ordinary code type-check, and the manifest, the API interface and
// the catalogue's declared shapes must agree with each other.
import {
  loadPipesim, METHODS, METHOD_NAMES, MODULE_BUILDS, SimError, timelineFields, transferables,
  type Catalogue, type CustomSchedule, type ModuleBuild, type Pipesim, type SimConfig, type SimResult,
  type Timeline, type TraceReport,
} from '../../wasm/pipesim.js';

// Type-level equality: compiles only when A and B are the same type.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const assertType = <T extends true>(value: T): T => value;

// The manifest has exactly the API's methods, and its names are those keys.
assertType<Equal<keyof typeof METHODS, keyof Pipesim>>(true);
assertType<Equal<(typeof METHOD_NAMES)[number], keyof Pipesim>>(true);
// Every timeline column the catalogue can name is a typed array of Timeline.
assertType<Equal<Catalogue['timeline'][number]['name'], Exclude<keyof Timeline, 'count'>>>(true);

export async function example(): Promise<number> {
  const api: Pipesim = await loadPipesim({ moduleUrl: new URL('./pipesim.mjs', import.meta.url) });
  // The figures' build, by name: the same Pipesim (its other methods throw SimError).
  const build: ModuleBuild = 'figures';
  const figures: Pipesim = await loadPipesim({ build });
  const glue: string = `${MODULE_BUILDS[build]}.mjs`;
  if (figures.simulate({ schedule: 'gpipe', ranks: 2, microbatches: 2 }).makespan > glue.length) return 0;
  const catalogue: Catalogue = api.catalogue();
  const config: SimConfig = { schedule: catalogue.schedules[0].name, ranks: 4, microbatches: 8, costs: catalogue.costs };
  const result: SimResult = api.simulate(config);
  const custom: CustomSchedule = { schedule: 'custom', stages: 1, microbatches: 1, rankOps: [['F0.0@0', 'B0.0@0']] };
  const fromCustom = api.simulate(custom);
  const starts: Float64Array = result.timeline.start;
  const ranks: Int16Array = result.timeline.rank;
  const fields: string[] = timelineFields(catalogue);
  const buffers: ArrayBuffer[] = transferables('simulate', result);
  const rows = api.sweep({ schedules: ['dualpipe'], ranks: [3], microbatches: [8] }).rows;
  for (const row of rows) if (!row.ok) console.log(row.error.rule, row.error.params.got);
  try {
    api.simulate({ ...config, ranks: 3 });
  } catch (error) {
    if (error instanceof SimError) return Object.keys(error.params).length + error.rule.length;
  }
  // A profiler trace, as bytes, with the catalogue's comm pattern; its costs run as they are.
  const report: TraceReport = api.traceImport(new Uint8Array(0), { commPattern: catalogue.trace.commPattern });
  const measured = report.derived ? api.overlapPair(report.derived.costs).duration - report.derived.pairMs.value : 0;
  const busy = report.streams.filter((s) => s.kind === 'comm').reduce((sum, s) => sum + s.busyMs, 0);
  return starts.length + ranks.length + fields.length + buffers.length + fromCustom.makespan + measured + busy +
    (report.overlap ?? 0);
}
