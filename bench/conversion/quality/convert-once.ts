// Child process of quality.bench.ts: one conversion of FILE (text layer only) in a fresh process, then exit:
// what a one-shot run costs, start-up included.   convert-once.ts FILE [native|wasm|auto]
import { createConversionEngine, type PdfEngine } from '@lectern/conversion';

const [file, engine] = process.argv.slice(2);
const conversion = createConversionEngine({ pdfEngine: (engine ?? 'auto') as PdfEngine });
const result = await conversion.convert({ path: file ?? '' }, { enableOcr: false });
await conversion.close();
process.stdout.write(`${result.page_count}\n`);
