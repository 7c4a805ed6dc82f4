import { defineMessages } from '../messages';

/** The console's overview page (issue 32 C7). */
export const overview = defineMessages(
  {
    'pc.overview.balance': 'Wallet balance',
    'pc.overview.lowBalance': 'Low-balance alert below {{amount}}',
    'pc.overview.orderCount': 'Partner API orders',
    'pc.overview.orders': 'Orders placed through the Partner API',
    'pc.overview.separation':
      'Only orders placed with your API keys in this mode. Your own web purchases are under My orders.',
    'pc.overview.none': 'No order placed through the Partner API in this mode yet.',
    'pc.overview.more': 'Older orders',
    'pc.overview.refresh': 'Refresh',
    'pc.overview.esims': 'eSIMs of {{order}}',
  },
  {
    tr: {
      'pc.overview.balance': 'Cüzdan bakiyesi',
      'pc.overview.lowBalance': '{{amount}} altında düşük bakiye uyarısı',
      'pc.overview.orderCount': 'Partner API siparişleri',
      'pc.overview.orders': 'Partner API ile verilen siparişler',
      'pc.overview.separation':
        'Yalnızca bu modda API anahtarlarınızla verilen siparişler. Kendi web alışverişleriniz Siparişlerim’de.',
      'pc.overview.none': 'Bu modda henüz Partner API ile verilmiş sipariş yok.',
      'pc.overview.more': 'Daha eski siparişler',
      'pc.overview.refresh': 'Yenile',
      'pc.overview.esims': '{{order}} eSIM’leri',
    },
    de: {
      'pc.overview.balance': 'Guthaben',
      'pc.overview.lowBalance': 'Warnung bei Guthaben unter {{amount}}',
      'pc.overview.orderCount': 'Bestellungen über die Partner-API',
      'pc.overview.orders': 'Über die Partner-API aufgegebene Bestellungen',
      'pc.overview.separation':
        'Nur Bestellungen mit Ihren API-Schlüsseln in diesem Modus. Ihre eigenen Web-Käufe stehen unter Meine Bestellungen.',
      'pc.overview.none': 'In diesem Modus noch keine Bestellung über die Partner-API.',
      'pc.overview.more': 'Ältere Bestellungen',
      'pc.overview.refresh': 'Aktualisieren',
      'pc.overview.esims': 'eSIMs von {{order}}',
    },
    fr: {
      'pc.overview.balance': 'Solde du portefeuille',
      'pc.overview.lowBalance': 'Alerte de solde bas sous {{amount}}',
      'pc.overview.orderCount': 'Commandes via l’API partenaire',
      'pc.overview.orders': 'Commandes passées via l’API partenaire',
      'pc.overview.separation':
        'Uniquement les commandes passées avec vos clés API dans ce mode. Vos achats sur le web sont dans Mes commandes.',
      'pc.overview.none': 'Aucune commande passée via l’API partenaire dans ce mode.',
      'pc.overview.more': 'Commandes plus anciennes',
      'pc.overview.refresh': 'Actualiser',
      'pc.overview.esims': 'eSIM de {{order}}',
    },
    es: {
      'pc.overview.balance': 'Saldo del monedero',
      'pc.overview.lowBalance': 'Aviso de saldo bajo por debajo de {{amount}}',
      'pc.overview.orderCount': 'Pedidos por la API de socios',
      'pc.overview.orders': 'Pedidos hechos con la API de socios',
      'pc.overview.separation':
        'Solo los pedidos hechos con tus claves API en este modo. Tus compras web están en Mis pedidos.',
      'pc.overview.none': 'Aún no hay pedidos por la API de socios en este modo.',
      'pc.overview.more': 'Pedidos anteriores',
      'pc.overview.refresh': 'Actualizar',
      'pc.overview.esims': 'eSIM de {{order}}',
    },
  },
);
