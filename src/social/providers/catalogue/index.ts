import type { ProviderType } from '../../provider-type.js';
import { agave } from './agave.js';
import { amazon } from './amazon.js';
import { amazonCognito } from './amazon_cognito.js';
import { asana } from './asana.js';
import { atlassian } from './atlassian.js';
import { auth0 } from './auth0.js';
import { authentiq } from './authentiq.js';
import { baidu } from './baidu.js';
import { basecamp } from './basecamp.js';
import { battlenet } from './battlenet.js';
import { bitbucketOauth2 } from './bitbucket_oauth2.js';
import { bitly } from './bitly.js';
import { box } from './box.js';
import { cilogon } from './cilogon.js';
import { clever } from './clever.js';
import { coinbase } from './coinbase.js';
import { dataporten } from './dataporten.js';
import { daum } from './Daum.js';
import { dingtalk } from './dingtalk.js';
import { drip } from './drip.js';
import { digitalocean } from './digitalocean.js';
import { disqus } from './disqus.js';
import { douban } from './douban.js';
import { doximity } from './doximity.js';
import { dropbox } from './dropbox.js';
import { dwolla } from './dwolla.js';
import { edmodo } from './edmodo.js';
import { edx } from './edx.js';
import { eventbrite } from './eventbrite.js';
import { eveonline } from './eveonline.js';
import { exist } from './exist.js';
import { facebook } from './facebook.js';
import { feedly } from './feedly.js';
import { feishu } from './feishu.js';
import { figma } from './figma.js';
import { foursquare } from './foursquare.js';
import { frontier } from './frontier.js';
import { fxa } from './fxa.js';
import { gitea } from './gitea.js';
import { globus } from './globus.js';
import { gumroad } from './gumroad.js';
import { hubic } from './hubic.js';
import { hubspot } from './hubspot.js';
import { instagram } from './instagram.js';
import { jupyterhub } from './jupyterhub.js';
import { kakao } from './kakao.js';
import { lemonldap } from './lemonldap.js';
import { lichess } from './lichess.js';
import { line } from './line.js';
import { linkedinOauth2 } from './linkedin_oauth2.js';
import { mailchimp } from './mailchimp.js';
import { mailcow } from './mailcow.js';
import { mailru } from './mailru.js';
import { mediawiki } from './mediawiki.js';
import { meetup } from './meetup.js';
import { miro } from './miro.js';
import { naver } from './naver.js';
import { netiq } from './netiq.js';
import { nextcloud } from './nextcloud.js';
import { notion } from './notion.js';
import { odnoklassniki } from './odnoklassniki.js';
import { okta } from './okta.js';
import { orcid } from './orcid.js';
import { patreon } from './patreon.js';
import { paypal } from './paypal.js';
import { pinterest } from './pinterest.js';
import { questrade } from './questrade.js';
import { quickbooks } from './quickbooks.js';
import { reddit } from './reddit.js';
import { robinhood } from './robinhood.js';
import { salesforce } from './salesforce.js';
import { sharefile } from './sharefile.js';
import { shopify } from './shopify.js';
import { slack } from './slack.js';
import { snapchat } from './snapchat.js';
import { soundcloud } from './soundcloud.js';
import { spotify } from './spotify.js';
import { stackexchange } from './stackexchange.js';
import { stocktwits } from './stocktwits.js';
import { strava } from './strava.js';
import { stripe } from './stripe.js';
import { tiktok } from './tiktok.js';
import { trainingpeaks } from './trainingpeaks.js';
import { tumblrOauth2 } from './tumblr_oauth2.js';
import { twentythreeandme } from './twentythreeandme.js';
import { twitch } from './twitch.js';
import { twitterOauth2 } from './twitter_oauth2.js';
import { untappd } from './untappd.js';
import { vimeoOauth2 } from './vimeo_oauth2.js';
import { vk } from './vk.js';
import { wahoo } from './wahoo.js';
import { weibo } from './weibo.js';
import { weixin } from './weixin.js';
import { windowslive } from './windowslive.js';
import { yahoo } from './yahoo.js';
import { yandex } from './yandex.js';
import { ynab } from './ynab.js';
import { zoho } from './zoho.js';
import { zoom } from './zoom.js';

// The reference's OAuth 2 and OpenID Connect providers with fixed endpoints, each declared
// in its own file (declared-provider.ts), in the order of their ids.
export const oauth2Catalogue: readonly ProviderType[] = [
  agave,
  amazon,
  amazonCognito,
  asana,
  atlassian,
  auth0,
  authentiq,
  baidu,
  basecamp,
  battlenet,
  bitbucketOauth2,
  bitly,
  box,
  cilogon,
  clever,
  coinbase,
  dataporten,
  daum,
  dingtalk,
  drip,
  digitalocean,
  disqus,
  douban,
  doximity,
  dropbox,
  dwolla,
  edmodo,
  edx,
  eventbrite,
  eveonline,
  exist,
  facebook,
  feedly,
  feishu,
  figma,
  foursquare,
  frontier,
  fxa,
  gitea,
  globus,
  gumroad,
  hubic,
  hubspot,
  instagram,
  jupyterhub,
  kakao,
  lemonldap,
  lichess,
  line,
  linkedinOauth2,
  mailchimp,
  mailcow,
  mailru,
  mediawiki,
  meetup,
  miro,
  naver,
  netiq,
  nextcloud,
  notion,
  odnoklassniki,
  okta,
  orcid,
  patreon,
  paypal,
  pinterest,
  questrade,
  quickbooks,
  reddit,
  robinhood,
  salesforce,
  sharefile,
  shopify,
  slack,
  snapchat,
  soundcloud,
  spotify,
  stackexchange,
  stocktwits,
  strava,
  stripe,
  tiktok,
  trainingpeaks,
  tumblrOauth2,
  twentythreeandme,
  twitch,
  twitterOauth2,
  untappd,
  vimeoOauth2,
  vk,
  wahoo,
  weibo,
  weixin,
  windowslive,
  yahoo,
  yandex,
  ynab,
  zoho,
  zoom,
];
