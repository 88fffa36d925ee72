import { createInProcessQueue } from './in-process.adapter.js';
import { runQueueContract } from './queue.contract.js';

runQueueContract('in-process', (definition, retry) => createInProcessQueue({ definition, ...retry }));
