// transfer.js: export and import of a run. An export is the thread's latest
// checkpoint as a JSON file (keys never enter state, so none is inside);
// importing one continues the run in this tab, or in another browser.

import { $ } from './render.js';

/**
 * @param {{ exported: () => Promise<object>, onImport: (data: object) => Promise<void>, onError: (e: object) => void }} hooks
 *   exported: { example, edited, checkpoint, threadId } of the run to save
 */
export function wireTransfer({ exported, onImport, onError }) {
  $('export').addEventListener('click', async () => {
    const { example, edited, checkpoint, threadId } = await exported();
    const blob = new Blob([JSON.stringify({ edgegraph: 'demo-export', version: 1, example, edited, checkpoint }, null, 1)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `edgegraph-${threadId}.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $('import').addEventListener('change', async () => {
    const file = $('import').files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      if (data.edgegraph !== 'demo-export' || typeof data.checkpoint !== 'string') throw new Error('not an edgegraph demo export');
      await onImport(data);
    } catch (e) {
      onError({ code: e.code ?? 'INVALID_CHECKPOINT', message: e.message });
    } finally {
      $('import').value = '';
    }
  });
}
