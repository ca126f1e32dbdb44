/**
 * Prints the `--max-old-space-size` (MiB) the configured limits need, for `npm start`;
 * with `--explain`, the arithmetic term by term. A configuration error is left for the
 * gateway itself to report: this prints the default limits' figure then.
 */
import { configFromEnv } from './config.ts';
import { heapBudget } from './heap-budget.ts';

let budget: ReturnType<typeof heapBudget>;
try {
  budget = heapBudget(configFromEnv());
} catch {
  budget = heapBudget(configFromEnv({}));
}
if (process.argv.includes('--explain')) {
  for (const [name, bytes] of Object.entries(budget.terms)) console.log(`${(bytes / 1024 / 1024).toFixed(1).padStart(8)} MiB  ${name}`);
  console.log(`${(budget.totalBytes / 1024 / 1024).toFixed(1).padStart(8)} MiB  total; x1.25 headroom, rounded up to 64 MiB: --max-old-space-size=${budget.heapMb}`);
} else {
  console.log(budget.heapMb);
}
