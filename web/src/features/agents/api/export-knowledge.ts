import { useMutation } from '@tanstack/react-query';
import { apiResponse } from '@/lib/api-client';
import { fileNameFromDisposition, saveBlob } from '@/lib/download';
import { exportFallbackName } from '../lib/download';
import type { KnowledgeFormat } from '../lib/file-kind';
import { clientPath } from './keys';

/** Downloads the client's FAQ as CSV or JSON (the import's own format); answers the file name. */
export async function exportKnowledge({ clientId, clientName, format }: { clientId: string; clientName: string; format: KnowledgeFormat }) {
  const response = await apiResponse(`${clientPath(clientId)}/knowledge/export`, { query: { format } });
  const name = fileNameFromDisposition(response.headers.get('content-disposition'), exportFallbackName(clientName, format, new Date()));
  saveBlob(await response.blob(), name);
  return name;
}

export function useExportKnowledge() {
  return useMutation({ mutationFn: exportKnowledge, retry: false });
}
