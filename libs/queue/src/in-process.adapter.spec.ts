// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineQueue } from '@lectern/contracts';
import { z } from 'zod';
import { createInProcessQueue } from './in-process.adapter.js';
import { runQueueContract } from './queue.contract.js';

runQueueContract('in-process', (definition, retry) => createInProcessQueue({ definition, ...retry }));

describe('in-process queue memory bound', () => {
  it('forgets the oldest finished jobs beyond keepFinished (a forgotten id runs again)', async () => {
    const definition = defineQueue({
      name: 'bounded',
      jobName: 'echo',
      payload: z.object({ n: z.number() }),
      result: z.object({ n: z.number() }),
    });
    const queue = createInProcessQueue({ definition, keepFinished: 2 });
    let calls = 0;
    queue.process(async (p) => {
      calls += 1;
      return p;
    });
    for (const n of [1, 2, 3]) await (await queue.add({ n }, { jobId: `job-${n}` })).result();
    expect(await queue.getJob('job-1')).toBeUndefined();
    expect((await queue.getJob('job-3'))?.status).toBe('succeeded');
    const again = await queue.add({ n: 1 }, { jobId: 'job-1' });
    expect(again.deduplicated).toBe(false);
    await again.result();
    expect(calls).toBe(4);
    await queue.close();
  });
});
