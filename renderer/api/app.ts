/** The app itself: what it is and where its data is (`app.info`), and the demo (its status, and opening it). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useAppInfo() {
  const client = useClient();
  return useQuery({ queryKey: keys.appInfo, queryFn: () => client.invoke('app.info', {}) });
}

export function useDemoStatus() {
  const client = useClient();
  return useQuery({ queryKey: keys.demo, queryFn: () => client.invoke('demo.status', {}) });
}

export function useOpenDemo() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.invoke('demo.open', {}),
    onSuccess: (status) => {
      qc.setQueryData(keys.demo, status);
      void qc.invalidateQueries({ queryKey: keys.appInfo });
      void qc.invalidateQueries({ queryKey: keys.profiles });
      void qc.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}
