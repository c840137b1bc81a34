// DELETE /api/platformconnections/{id}: the Disconnect button of one connected account.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function deleteConnection(connectionId: number): Promise<unknown> {
  return api.delete(`/platformconnections/${connectionId}`);
}

export function deleteConnectionMutationOptions() {
  return mutationOptions({ mutationKey: ['platform-connections', 'delete'], mutationFn: deleteConnection });
}
