import { useMutation } from '@tanstack/react-query';
import { apiResponse } from '@/lib/api-client';
import type { MessagesFilter } from '@/lib/messaging-keys';
import { saveBlob } from '@/lib/download';
import { exportFileName } from '../lib/download';

/** Downloads every message matching the filter and search as CSV; answers the file name. */
export async function exportMessages(filter: MessagesFilter): Promise<string> {
  const response = await apiResponse('/api/v1/messages/export.csv', {
    query: { filter: filter.filter, search: filter.search },
  });
  const name = exportFileName(response.headers.get('content-disposition'), new Date());
  saveBlob(await response.blob(), name);
  return name;
}

export function useExportMessages() {
  return useMutation({ mutationFn: exportMessages, retry: false });
}
