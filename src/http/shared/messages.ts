import type { ErrorCode } from '../../domain/errors.js';
import { negotiateLanguage, type UiLanguage } from '../../lib/languages.js';

export type Lang = UiLanguage;

/**
 * User-facing Mobile API error messages in every UI language (src/lib/languages.ts); Turkish
 * when Accept-Language names none of them.
 */
const MESSAGES: Record<ErrorCode, Record<Lang, string>> = {
  VALIDATION_ERROR: {
    en: 'Invalid request.',
    tr: 'Geçersiz istek.',
    de: 'Ungültige Anfrage.',
    fr: 'Requête invalide.',
    es: 'Solicitud no válida.',
  },
  INVALID_TOKEN: {
    en: 'The link is invalid or has expired.',
    tr: 'Bağlantı geçersiz veya süresi dolmuş.',
    de: 'Der Link ist ungültig oder abgelaufen.',
    fr: 'Le lien est invalide ou a expiré.',
    es: 'El enlace no es válido o ha caducado.',
  },
  INVALID_SIGNATURE: {
    en: 'Signature verification failed.',
    tr: 'İmza doğrulanamadı.',
    de: 'Die Signatur konnte nicht überprüft werden.',
    fr: 'La signature n’a pas pu être vérifiée.',
    es: 'No se ha podido verificar la firma.',
  },
  UNAUTHORIZED: {
    en: 'You need to sign in.',
    tr: 'Oturum açmanız gerekiyor.',
    de: 'Bitte melden Sie sich an.',
    fr: 'Veuillez vous connecter.',
    es: 'Debe iniciar sesión.',
  },
  INVALID_CREDENTIALS: {
    en: 'Incorrect email or password.',
    tr: 'E-posta veya şifre hatalı.',
    de: 'E-Mail-Adresse oder Passwort ist falsch.',
    fr: 'Adresse e-mail ou mot de passe incorrect.',
    es: 'Correo electrónico o contraseña incorrectos.',
  },
  CURRENT_PASSWORD_INCORRECT: {
    en: 'The current password is incorrect.',
    tr: 'Mevcut şifre hatalı.',
    de: 'Das aktuelle Passwort ist falsch.',
    fr: 'Le mot de passe actuel est incorrect.',
    es: 'La contraseña actual es incorrecta.',
  },
  INSUFFICIENT_BALANCE: {
    en: 'Your wallet balance is too low.',
    tr: 'Cüzdan bakiyeniz yetersiz.',
    de: 'Ihr Guthaben im Wallet reicht nicht aus.',
    fr: 'Le solde de votre portefeuille est insuffisant.',
    es: 'El saldo de su monedero es insuficiente.',
  },
  ACCOUNT_SUSPENDED: {
    en: 'Your account is suspended.',
    tr: 'Hesabınız askıya alınmış.',
    de: 'Ihr Konto ist gesperrt.',
    fr: 'Votre compte est suspendu.',
    es: 'Su cuenta está suspendida.',
  },
  CSRF_REJECTED: {
    en: 'The request origin could not be verified.',
    tr: 'İstek kaynağı doğrulanamadı.',
    de: 'Die Herkunft der Anfrage konnte nicht überprüft werden.',
    fr: 'L’origine de la requête n’a pas pu être vérifiée.',
    es: 'No se ha podido verificar el origen de la solicitud.',
  },
  ROLE_FORBIDDEN: {
    en: 'Your role in this partner account does not allow this.',
    tr: 'Bu iş ortağı hesabındaki rolünüz bu işleme izin vermiyor.',
    de: 'Ihre Rolle in diesem Partnerkonto erlaubt dies nicht.',
    fr: 'Votre rôle dans ce compte partenaire ne le permet pas.',
    es: 'Su función en esta cuenta de socio no lo permite.',
  },
  FORBIDDEN: {
    en: 'You are not allowed to do this.',
    tr: 'Bu işlem için yetkiniz yok.',
    de: 'Dazu sind Sie nicht berechtigt.',
    fr: 'Vous n’êtes pas autorisé à effectuer cette action.',
    es: 'No tiene permiso para realizar esta acción.',
  },
  NOT_FOUND: {
    en: 'Not found.',
    tr: 'Bulunamadı.',
    de: 'Nicht gefunden.',
    fr: 'Introuvable.',
    es: 'No encontrado.',
  },
  ACCOUNT_NOT_FOUND: {
    en: 'Account not found.',
    tr: 'Hesap bulunamadı.',
    de: 'Konto nicht gefunden.',
    fr: 'Compte introuvable.',
    es: 'Cuenta no encontrada.',
  },
  ORDER_NOT_FOUND: {
    en: 'Order not found.',
    tr: 'Sipariş bulunamadı.',
    de: 'Bestellung nicht gefunden.',
    fr: 'Commande introuvable.',
    es: 'Pedido no encontrado.',
  },
  COUNTRY_NOT_FOUND: {
    en: 'Destination not found.',
    tr: 'Ülke bulunamadı.',
    de: 'Reiseziel nicht gefunden.',
    fr: 'Destination introuvable.',
    es: 'Destino no encontrado.',
  },
  PLAN_NOT_FOUND: {
    en: 'Plan not found.',
    tr: 'Paket bulunamadı.',
    de: 'Tarif nicht gefunden.',
    fr: 'Forfait introuvable.',
    es: 'Plan no encontrado.',
  },
  ESIM_NOT_FOUND: {
    en: 'eSIM not found.',
    tr: 'eSIM bulunamadı.',
    de: 'eSIM nicht gefunden.',
    fr: 'eSIM introuvable.',
    es: 'eSIM no encontrada.',
  },
  TICKET_NOT_FOUND: {
    en: 'Support ticket not found.',
    tr: 'Destek talebi bulunamadı.',
    de: 'Supportanfrage nicht gefunden.',
    fr: 'Demande d’assistance introuvable.',
    es: 'Solicitud de soporte no encontrada.',
  },
  PAYMENT_NOT_FOUND: {
    en: 'Payment not found.',
    tr: 'Ödeme bulunamadı.',
    de: 'Zahlung nicht gefunden.',
    fr: 'Paiement introuvable.',
    es: 'Pago no encontrado.',
  },
  EMAIL_TAKEN: {
    en: 'This email address is already registered.',
    tr: 'Bu e-posta adresi zaten kayıtlı.',
    de: 'Diese E-Mail-Adresse ist bereits registriert.',
    fr: 'Cette adresse e-mail est déjà enregistrée.',
    es: 'Esta dirección de correo electrónico ya está registrada.',
  },
  WALLET_NOT_EMPTY: {
    en: 'The account cannot be deleted while the wallet has a balance.',
    tr: 'Cüzdanınızda bakiye varken hesabınız silinemez.',
    de: 'Das Konto kann nicht gelöscht werden, solange das Wallet ein Guthaben hat.',
    fr: 'Le compte ne peut pas être supprimé tant que le portefeuille présente un solde.',
    es: 'No se puede eliminar la cuenta mientras el monedero tenga saldo.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    en: 'This Idempotency-Key was used with a different request.',
    tr: 'Bu Idempotency-Key farklı bir istekle kullanılmış.',
    de: 'Dieser Idempotency-Key wurde bereits mit einer anderen Anfrage verwendet.',
    fr: 'Cette clé Idempotency-Key a déjà été utilisée avec une autre requête.',
    es: 'Esta clave Idempotency-Key ya se ha usado con otra solicitud.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    en: 'A request with this Idempotency-Key is still in progress.',
    tr: 'Bu Idempotency-Key ile bir istek hâlâ işleniyor.',
    de: 'Eine Anfrage mit diesem Idempotency-Key wird noch verarbeitet.',
    fr: 'Une requête avec cette clé Idempotency-Key est encore en cours de traitement.',
    es: 'Todavía se está procesando una solicitud con esta clave Idempotency-Key.',
  },
  CONFLICT: {
    en: 'The request conflicts with the current state.',
    tr: 'İstek mevcut durumla çakışıyor.',
    de: 'Die Anfrage steht im Widerspruch zum aktuellen Stand.',
    fr: 'La requête est en conflit avec l’état actuel.',
    es: 'La solicitud entra en conflicto con el estado actual.',
  },
  INVALID_STATE: {
    en: 'This action is not possible in the current state.',
    tr: 'Bu işlem şu anda yapılamaz.',
    de: 'Diese Aktion ist im aktuellen Zustand nicht möglich.',
    fr: 'Cette action n’est pas possible dans l’état actuel.',
    es: 'Esta acción no es posible en el estado actual.',
  },
  ORDER_NOT_CANCELLABLE: {
    en: 'This order cannot be cancelled. Contact support from the Support page if you need help.',
    tr: 'Bu sipariş iptal edilemez. Yardım için Destek sayfasından bize ulaşın.',
    de: 'Diese Bestellung kann nicht storniert werden. Wenden Sie sich bei Bedarf über die Support-Seite an uns.',
    fr: 'Cette commande ne peut pas être annulée. Contactez l’assistance depuis la page Assistance si besoin.',
    es: 'Este pedido no se puede cancelar. Si necesita ayuda, contacte con soporte desde la página de Soporte.',
  },
  ESIM_INSTALLED: {
    en: 'An eSIM of this order has been installed on a device, so it cannot be cancelled here. Contact support from the Support page.',
    tr: 'Bu siparişin bir eSIM’i bir cihaza yüklendiği için burada iptal edilemez. Destek sayfasından bize ulaşın.',
    de: 'Eine eSIM dieser Bestellung wurde auf einem Gerät installiert und kann hier nicht storniert werden. Wenden Sie sich über die Support-Seite an uns.',
    fr: 'Une eSIM de cette commande a été installée sur un appareil : elle ne peut pas être annulée ici. Contactez l’assistance depuis la page Assistance.',
    es: 'Una eSIM de este pedido se ha instalado en un dispositivo, por lo que no se puede cancelar aquí. Contacte con soporte desde la página de Soporte.',
  },
  ESIM_USED: {
    en: 'An eSIM of this order has already used data, so it cannot be cancelled here. Contact support from the Support page.',
    tr: 'Bu siparişin bir eSIM’i veri kullandığı için burada iptal edilemez. Destek sayfasından bize ulaşın.',
    de: 'Eine eSIM dieser Bestellung hat bereits Daten verbraucht und kann hier nicht storniert werden. Wenden Sie sich über die Support-Seite an uns.',
    fr: 'Une eSIM de cette commande a déjà consommé des données : elle ne peut pas être annulée ici. Contactez l’assistance depuis la page Assistance.',
    es: 'Una eSIM de este pedido ya ha usado datos, por lo que no se puede cancelar aquí. Contacte con soporte desde la página de Soporte.',
  },
  REFUND_WINDOW_PASSED: {
    en: 'This order is too old to be cancelled here. Contact support from the Support page.',
    tr: 'Bu sipariş burada iptal edilemeyecek kadar eski. Destek sayfasından bize ulaşın.',
    de: 'Diese Bestellung ist zu alt, um hier storniert zu werden. Wenden Sie sich über die Support-Seite an uns.',
    fr: 'Cette commande est trop ancienne pour être annulée ici. Contactez l’assistance depuis la page Assistance.',
    es: 'Este pedido es demasiado antiguo para cancelarlo aquí. Contacte con soporte desde la página de Soporte.',
  },
  SELF_REFUND_LIMIT: {
    en: 'You have reached the number of self-service refunds for the last 30 days. Contact support from the Support page.',
    tr: 'Son 30 gün için kendi kendine iade sınırına ulaştınız. Destek sayfasından bize ulaşın.',
    de: 'Sie haben die Zahl der Selbstrückerstattungen der letzten 30 Tage erreicht. Wenden Sie sich über die Support-Seite an uns.',
    fr: 'Vous avez atteint le nombre de remboursements en libre-service des 30 derniers jours. Contactez l’assistance depuis la page Assistance.',
    es: 'Ha alcanzado el número de reembolsos por su cuenta de los últimos 30 días. Contacte con soporte desde la página de Soporte.',
  },
  CANCELLATION_PENDING: {
    en: 'The cancellation is being completed; the refund reaches your wallet shortly.',
    tr: 'İptal işlemi tamamlanıyor; iade kısa süre içinde cüzdanınıza geçecek.',
    de: 'Die Stornierung wird abgeschlossen; die Erstattung erreicht Ihr Wallet in Kürze.',
    fr: 'L’annulation est en cours ; le remboursement arrivera bientôt dans votre portefeuille.',
    es: 'La cancelación se está completando; el reembolso llegará pronto a su monedero.',
  },
  PAYLOAD_TOO_LARGE: {
    en: 'The request body is too large.',
    tr: 'İstek gövdesi çok büyük.',
    de: 'Der Inhalt der Anfrage ist zu groß.',
    fr: 'Le corps de la requête est trop volumineux.',
    es: 'El cuerpo de la solicitud es demasiado grande.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    en: 'Unsupported content type.',
    tr: 'Desteklenmeyen içerik türü.',
    de: 'Nicht unterstützter Inhaltstyp.',
    fr: 'Type de contenu non pris en charge.',
    es: 'Tipo de contenido no admitido.',
  },
  URI_TOO_LONG: {
    en: 'The request URL is too long.',
    tr: 'İstek adresi çok uzun.',
    de: 'Die Adresse der Anfrage ist zu lang.',
    fr: 'L’adresse de la requête est trop longue.',
    es: 'La URL de la solicitud es demasiado larga.',
  },
  HEADERS_TOO_LARGE: {
    en: 'The request headers are too large.',
    tr: 'İstek başlıkları çok büyük.',
    de: 'Die Header der Anfrage sind zu groß.',
    fr: 'Les en-têtes de la requête sont trop volumineux.',
    es: 'Los encabezados de la solicitud son demasiado grandes.',
  },
  RATE_LIMITED: {
    en: 'Too many requests, please try again later.',
    tr: 'Çok fazla istek gönderildi, lütfen biraz sonra tekrar deneyin.',
    de: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
    fr: 'Trop de requêtes. Veuillez réessayer plus tard.',
    es: 'Demasiadas solicitudes. Vuelva a intentarlo más tarde.',
  },
  INTERNAL_ERROR: {
    en: 'An unexpected error occurred.',
    tr: 'Beklenmeyen bir hata oluştu.',
    de: 'Ein unerwarteter Fehler ist aufgetreten.',
    fr: 'Une erreur inattendue s’est produite.',
    es: 'Se ha producido un error inesperado.',
  },
  PROVIDER_ERROR: {
    en: 'The provider is not responding.',
    tr: 'Sağlayıcı şu anda yanıt vermiyor.',
    de: 'Der Anbieter antwortet derzeit nicht.',
    fr: 'Le fournisseur ne répond pas pour le moment.',
    es: 'El proveedor no responde en este momento.',
  },
  FULFILLMENT_FAILED: {
    en: 'Your payment was taken but the eSIM could not be issued yet; it will be retried. Do not pay again.',
    tr: 'Ödemeniz alındı ancak eSIM oluşturulamadı; tekrar denenecek. Tekrar ödeme yapmayın.',
    de: 'Ihre Zahlung ist eingegangen, die eSIM konnte aber noch nicht ausgestellt werden; wir versuchen es automatisch erneut. Bitte zahlen Sie nicht noch einmal.',
    fr: 'Votre paiement a bien été reçu, mais l’eSIM n’a pas encore pu être émise ; nous réessayons automatiquement. Ne payez pas une seconde fois.',
    es: 'Hemos recibido su pago, pero la eSIM aún no se ha podido emitir; lo reintentaremos automáticamente. No vuelva a pagar.',
  },
  SERVICE_UNAVAILABLE: {
    en: 'Service temporarily unavailable.',
    tr: 'Hizmet geçici olarak kullanılamıyor.',
    de: 'Der Dienst ist vorübergehend nicht verfügbar.',
    fr: 'Le service est temporairement indisponible.',
    es: 'El servicio no está disponible temporalmente.',
  },
};

export function messageFor(code: ErrorCode, lang: Lang): string {
  return MESSAGES[code][lang];
}

/**
 * The UI language Accept-Language prefers (highest q wins; ties go to the first listed), `tr`
 * when it names none we speak.
 */
export function preferredLang(acceptLanguage: string | undefined): Lang {
  return negotiateLanguage(acceptLanguage, 'tr');
}

/** "expected Origin" in the CSRF message, which names the origins the server accepts. */
export const EXPECTED_ORIGIN: Record<Lang, string> = {
  en: 'expected Origin',
  tr: 'beklenen Origin',
  de: 'erwartete Origin',
  fr: 'Origin attendue',
  es: 'Origin esperado',
};
