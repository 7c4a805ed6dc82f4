/** A message as `GET /api/admin/v1/mail` lists it. */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: Array<{ filename: string; contentType: string; cid: string | null; size: number }>;
  status: string;
}

/** The fields of a Mobile API eSIM that a receipt mail repeats. */
export interface MailedEsim {
  id: string;
  orderId: string;
  iccid: string;
  activationCode: string;
  qrCodeUrl: string;
  iosInstallUrl: string;
  installUrl: string;
  smdpAddress: string;
  matchingId: string;
}
