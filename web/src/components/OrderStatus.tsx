import type { Order } from '../api/types';
import { useI18n, type MessageKey } from '../i18n';

export function OrderStatus({ status }: { status: Order['status'] }) {
  const { t } = useI18n();
  return (
    <span className={`badge status-${status.toLowerCase()}`} data-status={status}>
      {t(`order.status.${status}` as MessageKey)}
    </span>
  );
}
