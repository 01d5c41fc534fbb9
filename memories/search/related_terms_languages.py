"""Related terms for short queries in the languages the product claims beside English: the
English lexicon's general vocabulary (`memories/search/related_terms.py`, whose rules these
follow), written again in each language by hand — relations, hypernyms -> common hyponyms,
synonyms, colloquial words — not from any evaluation set (bench/data/multilingual.json keeps a
held-out third to check that).

The syntax is the English lexicon's: words that all mean each other, optionally followed by
`> x y z`: narrower or related words they also find (but that do not find them). A two- or
three-word term is joined by `_`. Words are matched as a query writes them, folded to lower case:
inflected forms a stemmer does not join (German plurals with an umlaut, Russian and Japanese
forms) are listed.
Each term's lexemes come from its own language's analysis (`memories/search/lexical.py`), so a
German term finds a German memory's stems; Chinese and Japanese terms are read as the character
bigrams their memories are indexed with. Words with a second common sense are left out, as in
English.
"""

# ruff: noqa: RUF001 - Cyrillic and CJK words are the point of these tables

from __future__ import annotations

from memories import language

LEXICONS: dict[str, str] = {
    language.GERMAN: """
kind kinder nachwuchs sprössling > tochter töchter sohn söhne baby kleinkind junge mädchen
tochter töchter > mädchen kind
sohn söhne > junge kind
baby babys säugling neugeborenes > kleinkind
eltern elternteil > mutter mama vater papa
mutter mama mutti
vater papa vati
großeltern > großmutter oma großvater opa
großmutter oma omi
großvater opa
geschwister > bruder brüder schwester schwestern
ehepartner partner partnerin > ehefrau ehemann verlobte verlobter
ehefrau ehemann > verheiratet hochzeit
verwandte verwandtschaft familie > cousin cousine tante onkel nichte neffe
chef chefin vorgesetzter vorgesetzte
kollege kollegin kollegen kolleginnen > team
beruf arbeit job > entwickler entwicklerin ingenieur ingenieurin lehrer lehrerin pfleger pflegerin
arbeitgeber firma unternehmen > startup
gehalt lohn einkommen verdienst > verdienen brutto netto
urlaub ferien > reise
kündigung kündigen > gekündigt
pendeln arbeitsweg > zug bus straßenbahn u-bahn s-bahn
homeoffice > zuhause
arzt ärztin hausarzt hausärztin doktor
kinderarzt kinderärztin
tierarzt tierärztin
zahnarzt zahnärztin zähne zahn
medikament medikamente tabletten arznei rezept > mg dosis
antidepressivum antidepressiva > sertralin fluoxetin citalopram escitalopram
schmerzmittel > ibuprofen paracetamol aspirin
antibiotikum antibiotika > penicillin amoxicillin
allergie allergien allergisch > unverträglichkeit ausschlag
bluthochdruck > blutdruck
therapie therapeut therapeutin psychologe psychologin > psychotherapie
augen sehkraft > brille kontaktlinsen kurzsichtig optiker
impfung impfungen geimpft > tetanus grippe
verletzung verletzt > verstaucht gebrochen bruch
ernährung diät > vegetarisch vegan fleisch gluten
vegetarier vegetarierin vegetarisch > fleisch
milchprodukte milch > laktose
kaffee koffein > espresso latte cappuccino
alkohol > wein bier riesling whisky
rauchen raucher zigaretten zigarette nikotin
gewicht > kilo kilos abnehmen
schlaf schlafen > bett aufwachen
auto autos fahrzeug pkw > golf bmw audi toyota tesla vw
motorrad
fahrrad rad radfahren > brompton
führerschein
werkstatt > mechaniker
wohnung wohnungen > miete
vermieter vermieterin
internet wlan > router
pflanzen zimmerpflanzen > monstera ficus
garten gärtnern > schrebergarten gemüse
sofa couch
möbel > sofa tisch stuhl bett schrank schreibtisch
heizung
strom energie > tarif
müll abfall > mülltonne recycling
paket pakete päckchen lieferung
ersparnisse sparen geldanlage aktien > etf fonds
rente > ruhestand pension
lebensmittel einkauf > supermarkt
abo abonnement streaming > netflix spotify disney
schulden kredit > darlehen hypothek
lieblings lieblingsessen
restaurant restaurants
frühstück > müsli haferflocken
hund hunde welpe > dackel beagle labrador pudel terrier
katze katzen kater kätzchen
haustier haustiere > hund katze dackel
flug flüge flugzeug
koffer gepäck
strand meer küste > ostsee nordsee
berge gebirge > alpen gipfel wandern
instrument > gitarre klavier geige cello schlagzeug
joggen jogging
sport fitness training fitnessstudio > gym
buch bücher roman romane > lesen
brettspiele > catan schach monopoly
fotografie fotos fotografieren > kamera
wandern wanderung > spazieren
fußball > verein
musik > jazz rock pop klassik schallplatten
konzert konzerte > tickets band
serie serien > staffel
film filme kino
spiele videospiele zocken > switch playstation xbox nintendo zelda
studium universität hochschule uni > master bachelor promotion
kurs unterricht
laptop computer rechner > thinkpad macbook
handy smartphone telefon > pixel iphone samsung
passwort passwörter > bitwarden keepass
kopfhörer > ohrhörer headset
geburtstag geboren > geburt
verheiratet hochzeit > ehefrau ehemann jahrestag
geschenk geschenke > wunschliste
heimatstadt > aufgewachsen dorf
muttersprache
anwalt anwältin rechtsanwalt
friseur friseurin haarschnitt
spende spenden > ehrenamt
kinderbetreuung kita kindergarten > babysitter tagesmutter
freund freunde freundin freundinnen kumpel kumpels > bekannte
nachbar nachbarin nachbarn
schwiegereltern > schwiegermutter schwiegervater
enkel enkelkinder enkelin enkelsohn enkeltochter
schwanger schwangerschaft > geburtstermin entbindung
scheidung geschieden getrennt > trennung
umzug umziehen umgezogen > wohnung
küche > kochen herd
badezimmer > dusche badewanne
haushalt putzen > wäsche staubsaugen abwasch
waschmaschine spülmaschine geschirrspüler kühlschrank > haushaltsgeräte
mitbewohner mitbewohnerin wg > wohngemeinschaft
gehaltsabrechnung lohnabrechnung lohnzettel gehaltszettel > gehalt lohn
schichtdienst > nachtschicht frühschicht spätschicht
beförderung gehaltserhöhung > befördert
arbeitslos arbeitslosigkeit jobsuche > bewerbung
bewerbung vorstellungsgespräch bewerbungsgespräch
büro > homeoffice
selbstständig selbständig freiberufler freiberuflerin freelancer
dienstreise geschäftsreise
krank krankheit erkältung > krankgeschrieben grippe
krankenhaus klinik > notaufnahme
operation operiert
rückenschmerzen > bandscheibe
kopfschmerzen migräne
diabetes diabetiker diabetikerin > insulin
asthma > inhalator
blutwerte blutabnahme bluttest
physiotherapie physio krankengymnastik
krankenversicherung krankenkasse
angststörung panikattacken
depression depressionen depressiv
kochen rezepte > backen
backen > kuchen brot
obst früchte > äpfel bananen
gemüse > salat
süßigkeiten schokolade naschen
tee > kräutertee
mittagessen abendessen
fisch > lachs meeresfrüchte
nagetier nagetiere > hamster meerschweinchen ratte ratten
wellensittich vögel
aquarium fische
pferd pferde reiten > pony
gassi gassigehen
nahverkehr öffis > bus straßenbahn u-bahn s-bahn
taxi uber
tanken benzin diesel sprit > tankstelle
parkplatz parken > parkhaus
monatskarte deutschlandticket > fahrkarte
elektroauto e-auto
karre > auto
konto girokonto > überweisung
rechnungen > nebenkosten
steuern steuererklärung > finanzamt
haushaltsbuch > ausgaben budget
versicherung versicherungen > haftpflicht
kreditkarte > visa mastercard
stricken nähen häkeln > handarbeit
malen zeichnen > aquarell skizzen
singen chor > gesang
tanzen tanzkurs > salsa
basteln heimwerken
camping zelten > zelt wohnmobil
sammeln sammlung > briefmarken
yoga > meditation
klettern bouldern > kletterhalle
schwimmen schwimmbad hallenbad
muckibude fitnessstudio gym > krafttraining hanteln
marathon halbmarathon
reise reisen > urlaub
hotel hotels > unterkunft ferienwohnung
reisepass visum > ausweis
schule > schüler schülerin
prüfung prüfungen klausur klausuren > zeugnis
kleidung klamotten > schuhe jacke
schuhe > sneaker
kirche religion > beten gottesdienst
sprachen fremdsprachen > englisch französisch spanisch
fernseher fernsehen
tablet ipad
überstunden mehrarbeit
stau verkehrsstau
angeln angler
""",
    language.SPANISH: """
hijo hijos niño niños niña niñas crío críos chaval chavales peques > hija hijas bebé
hija hijas > niña
bebé bebés
padres > madre mamá padre papá
madre mamá
padre papá
abuelos > abuela abuelo
abuela abuelita
abuelo abuelito
hermanos > hermano hermana
pareja cónyuge > esposa esposo marido novia novio prometida prometido
esposa esposo marido > casado casada boda
familia familiares parientes > primo prima tía tío sobrina sobrino
jefe jefa supervisor supervisora > gerente
compañero compañera compañeros colega colegas > equipo
trabajo empleo profesión oficio > desarrollador desarrolladora ingeniero ingeniera
trabajo empleo profesión oficio > enfermero enfermera profesor profesora
empresa compañía > startup
sueldo salario ingresos > ganar nómina
vacaciones > viaje
dimisión dimitir renuncia renunciar
teletrabajo > casa
médico médica doctor doctora
pediatra
veterinario veterinaria
dentista dientes muela
medicamento medicamentos medicación pastillas receta > mg dosis
antidepresivo antidepresivos > sertralina fluoxetina citalopram escitalopram
analgésico analgésicos > ibuprofeno paracetamol aspirina
antibiótico antibióticos > penicilina amoxicilina
alergia alergias alérgico alérgica > intolerancia sarpullido
hipertensión > tensión presión_arterial
terapia terapeuta psicólogo psicóloga > salud_mental
ojos > gafas lentillas miope óptica
vacuna vacunas vacunado vacunada > tétanos gripe
lesión lesionado lesionada > esguince roto rota fractura
dieta alimentación > vegetariano vegetariana vegano vegana carne gluten
vegetariano vegetariana > carne
lácteos leche > lactosa
café cafeína > espresso cortado capuchino
alcohol > vino cerveza whisky
fumar tabaco cigarrillos nicotina
peso > kilos adelgazar
dormir sueño > cama despertar
coche coches carro auto automóvil vehículo > golf bmw audi toyota tesla seat
moto motocicleta
bicicleta bici > ciclismo
carnet licencia
taller > mecánico
piso apartamento departamento vivienda > alquiler
casero casera arrendador
internet wifi > router
plantas > monstera ficus
jardín huerto > verduras
sofá
muebles > sofá mesa silla cama armario escritorio
calefacción
electricidad > tarifa
basura > reciclaje
paquete paquetes envío entrega
ahorros inversiones invertir acciones > fondo
jubilación pensión
supermercado > comida
suscripción suscripciones > netflix spotify disney
deuda deudas préstamo > hipoteca
favorito favorita
restaurante restaurantes
desayuno > avena cereales
perro perros perrito cachorro > teckel beagle labrador caniche
gato gatos gatito minino
mascota mascotas > perro gato
vuelo vuelos avión > asiento pasillo ventanilla
maleta equipaje
playa costa > mar
montaña montañas > pirineos cumbre senderismo
instrumento > guitarra piano violín violonchelo batería
correr footing running
gimnasio gym ejercicio deporte entrenamiento
libro libros novela novelas > leer lectura
ajedrez > catan
fotografía fotos > cámara
senderismo excursión > caminar
fútbol > club
música > jazz rock pop clásica discos
concierto conciertos > entradas
serie series > episodio
película películas cine
videojuegos > switch playstation xbox nintendo zelda
universidad facultad > máster grado doctorado
curso > lección
portátil ordenador computadora > thinkpad macbook
móvil celular teléfono > iphone samsung
contraseña contraseñas
auriculares cascos
cumpleaños nací > nacimiento
casado casada boda > aniversario esposa esposo marido
regalo regalos
pueblo > crecí
abogado abogada
peluquero peluquera peluquería
donación donar > voluntariado
guardería > niñera canguro
amigo amiga amigos amigas > mejor_amigo mejor_amiga
vecino vecina vecinos vecinas
suegros > suegra suegro
nietos nieto nieta
embarazada embarazo > parto
divorcio divorciado divorciada separado separada
mudanza mudarse > piso
cocinar > receta recetas
baño > ducha bañera
limpieza limpiar > colada fregar aspiradora
lavadora lavavajillas nevera frigorífico > electrodomésticos
compañero_de_piso compañera_de_piso
nómina > sueldo salario
desempleo desempleado desempleada > buscar_trabajo
entrevista_de_trabajo > currículum
autónomo autónoma freelance
enfermo enferma enfermedad resfriado > baja gripe
hospital > urgencias
cirugía operado operada
dolor_de_espalda > lumbago
dolor_de_cabeza migraña jaqueca
diabetes diabético diabética > insulina
asma > inhalador
análisis_de_sangre analítica
fisioterapia fisio fisioterapeuta
seguro_médico mutua
ansiedad > ataques_de_pánico
depresión deprimido deprimida
repostería hornear > tarta pastel bizcocho
fruta frutas > manzanas plátanos
verduras hortalizas > ensalada
dulces chocolate chuches golosinas
té infusión
almuerzo cena
pescado > salmón marisco
roedor roedores > hámster cobaya rata
pájaro pájaros periquito
acuario peces
caballo caballos equitación > poni
transporte_público > autobús metro tren tranvía
taxi uber
gasolina diésel repostar > gasolinera
aparcar aparcamiento > parking
atasco tráfico
cuenta_bancaria > transferencia
facturas factura recibos
impuestos hacienda > declaración_de_la_renta
presupuesto gastos
tarjeta_de_crédito > mastercard
tejer coser ganchillo
pintar dibujar dibujo > acuarela
cantar coro
bailar baile > salsa
manualidades bricolaje
pescar pesca
camping acampar > autocaravana
coleccionar colección > sellos
yoga > meditación
escalada escalar > rocódromo
nadar natación piscina
pesas musculación > gimnasio
maratón media_maratón
viaje viajes viajar > vacaciones
hotel hoteles > alojamiento
pasaporte visado
colegio escuela instituto > clase alumno alumna
examen exámenes
maestro maestra > clase
ropa > zapatos chaqueta
zapatos zapatillas
iglesia religión > rezar misa
idiomas > inglés francés alemán
tele televisión
tableta ipad
horas_extra horas_extras
""",
    language.FRENCH: """
enfant enfants gamin gamins gosses > fille filles fils bébé garçon
fille filles > enfant
fils > garçon enfant
bébé bébés nourrisson
parents > mère maman père papa
mère maman
père papa
grands-parents > mamie papi mémé pépé
mamie mémé
papi pépé
frères_et_sœurs > frère frères sœur sœurs
conjoint conjointe partenaire compagnon compagne > femme épouse mari copine copain fiancé fiancée
épouse mari > marié mariée mariage
famille > cousin cousine tante oncle nièce neveu
patron patronne chef cheffe supérieur responsable > manager
collègue collègues > équipe
métier travail emploi boulot profession > développeur développeuse ingénieur ingénieure
métier travail emploi boulot profession > infirmier infirmière professeur prof
employeur entreprise société > startup
salaire paie revenu revenus > gagner
vacances congés > voyage
démission démissionner
télétravail > maison
médecin docteur généraliste
pédiatre
vétérinaire véto
dentiste dents dent
médicament médicaments traitement cachets ordonnance > mg dose
antidépresseur antidépresseurs > sertraline fluoxétine citalopram escitalopram
antidouleur antidouleurs > ibuprofène paracétamol aspirine doliprane
antibiotique antibiotiques > pénicilline amoxicilline
allergie allergies allergique > intolérance urticaire
hypertension > tension
thérapie thérapeute psy psychologue > santé_mentale
vue yeux > lunettes lentilles myope opticien
vaccin vaccins vacciné vaccinée > tétanos grippe
blessure blessé blessée > entorse cassé cassée fracture
régime alimentation > végétarien végétarienne végan vegan viande gluten
végétarien végétarienne > viande
laitages lait > lactose
café caféine > expresso latte cappuccino
alcool > vin bière whisky
fumer cigarettes cigarette clope nicotine
poids > kilos maigrir
sommeil dormir > réveil
voiture voitures auto véhicule bagnole > golf bmw audi toyota tesla peugeot renault
moto
vélo bicyclette > cyclisme
permis
garage > mécanicien garagiste
appartement appart logement > loyer
propriétaire bailleur
internet wifi box > routeur
plantes > monstera ficus
jardin potager > légumes
canapé sofa
meubles > canapé table chaise armoire
chauffage
électricité énergie > tarif
poubelle poubelles déchets > recyclage
colis livraison
épargne économies placements actions > fonds etf
retraite
supermarché > nourriture
abonnement abonnements > netflix spotify disney
dette dettes crédit prêt > hypothèque
préféré préférée
restaurant restaurants > dîner
chien chiens chiot > teckel beagle labrador caniche
chat chats chaton minou
animal animaux > chien chat
vols avion > hublot
valise bagages
plage côte > mer
montagne montagnes > alpes sommet randonnée
instrument > guitare piano violon violoncelle batterie
courir jogging footing
sport salle_de_sport gym musculation > entraînement
livre livres roman romans > lire lecture
échecs > catan
photographie photos photo > appareil
randonnée rando > marche
foot football > club
musique > jazz rock pop classique vinyles
concert concerts > billets
série séries > épisode
film films cinéma
jeux_vidéo > switch playstation xbox nintendo zelda
études université fac > master licence doctorat
formation > leçon
ordinateur ordi pc > thinkpad macbook
téléphone smartphone > iphone samsung
mdp
casque écouteurs
anniversaire né née > naissance
marié mariée mariage > épouse mari
cadeau cadeaux
village > grandi
avocat avocate
coiffeur coiffeuse coupe
don dons > bénévolat
crèche nounou > babysitter
ami amie amis amies pote potes copains copines > meilleur_ami meilleure_amie
voisin voisine voisins voisines
beaux-parents > belle-mère beau-père
petits-enfants > petit-fils petite-fille
enceinte grossesse > accouchement
divorce divorcé divorcée séparés > séparation
déménagement déménager déménagé
cuisiner > recette recettes
salle_de_bain > douche baignoire
ménage > lessive aspirateur vaisselle
lave-linge lave-vaisselle frigo réfrigérateur > électroménager
colocation coloc colocataire
fiche_de_paie bulletin_de_salaire > salaire paie
heures_sup heures_supplémentaires
chômage chômeur chômeuse > recherche_d'emploi
entretien_d'embauche > cv
indépendant indépendante freelance auto-entrepreneur
malade maladie rhume > arrêt_maladie grippe
hôpital > urgences
chirurgie opéré opérée
mal_de_dos > lombalgie
mal_de_tête migraine migraines
diabète diabétique > insuline
asthme asthmatique > inhalateur ventoline
kiné kinésithérapeute kinésithérapie
mutuelle sécu
anxiété angoisse > crises_d'angoisse
dépression déprimé déprimée
pâtisserie gâteau gâteaux
fruits > pommes bananes
légumes > salade
sucreries bonbons chocolat
thé tisane
déjeuner dîner repas
poisson > saumon fruits_de_mer
épicé piquant
rongeur rongeurs > hamster cochon_d'inde
oiseau oiseaux perruche
aquarium poissons
cheval chevaux équitation > poney
transports_en_commun > bus métro tram rer
taxi uber vtc
essence diesel carburant > station-service
stationnement se_garer > parking
bouchons embouteillages
banque compte_bancaire > virement
factures facture
impôts > déclaration_d'impôts
budget dépenses
assurance assurances > assuré assurée
carte_bancaire carte_de_crédit > mastercard
tricot tricoter couture coudre
peinture dessin dessiner peindre > aquarelle
chanter chorale
danse danser > salsa
pêcher pêcheur
camping camper > tente camping-car
collectionner > timbres
yoga > méditation
escalade grimper
natation nager piscine
tennis padel
muscu musculation > haltères
marathon semi-marathon
voyage voyages voyager > vacances
hôtel hôtels > hébergement airbnb
passeport visa > carte_d'identité
école collège lycée > classe élève élèves
examen examens partiel partiels bac
instituteur institutrice > classe
vêtements fringues > chaussures veste
chaussures baskets
église religion > prier messe
langues > anglais allemand espagnol
télé télévision
tablette ipad
montre_connectée smartwatch
""",
    language.PORTUGUESE: """
filho filhos criança crianças miúdos > filha filhas bebê bebé menino menina
filha filhas > menina
bebê bebé bebês
pais > mãe mamãe pai papai
mãe mamãe mamã
pai papai papá
avós > avó vovó avô vovô
avó vovó
avô vovô
irmãos > irmão irmã irmãs
cônjuge parceiro parceira companheiro companheira > esposa marido namorada namorado noiva noivo
esposa marido > casado casada casamento
família parentes > primo prima tia tio sobrinha sobrinho
chefe gestor gestora supervisor supervisora > gerente
colega colegas > equipe equipa
trabalho emprego profissão > desenvolvedor desenvolvedora engenheiro engenheira
trabalho emprego profissão > enfermeiro enfermeira professor professora
empresa firma > startup
salário ordenado renda rendimento > ganhar contracheque holerite
férias > viagem
demissão demitir
home_office teletrabalho > casa
médico médica doutor doutora
pediatra
veterinário veterinária
dentista dentes dente
remédio remédios medicamento medicamentos comprimidos receita > mg dose
antidepressivo antidepressivos > sertralina fluoxetina citalopram escitalopram
analgésico analgésicos > ibuprofeno paracetamol aspirina
antibiótico antibióticos > penicilina amoxicilina
alergia alergias alérgico alérgica > intolerância
hipertensão > pressão
terapia terapeuta psicólogo psicóloga > saúde_mental
olhos > óculos lentes míope
vacina vacinas vacinado vacinada > tétano gripe
lesão machucado > entorse quebrado fratura
dieta alimentação > vegetariano vegetariana vegano vegana carne glúten
vegetariano vegetariana > carne
laticínios leite > lactose
café cafeína > expresso cappuccino
álcool > vinho cerveja uísque
fumar cigarro cigarros nicotina
peso > quilos emagrecer
sono dormir > cama acordar
carro carros automóvel veículo > golf bmw audi toyota tesla fiat
moto motocicleta
bicicleta bike > ciclismo
cnh habilitação
oficina > mecânico
apartamento moradia > aluguel aluguer
senhorio proprietário
internet wifi > roteador router
plantas > monstera ficus
jardim horta > legumes
sofá
móveis > sofá mesa cadeira cama armário escrivaninha
aquecimento
eletricidade energia > tarifa
lixo > reciclagem
encomenda encomendas pacote entrega
poupança economias investimentos ações > fundo
aposentadoria
compras supermercado mercado > comida
assinatura assinaturas > netflix spotify disney
dívida dívidas empréstimo > financiamento hipoteca
favorito favorita preferido preferida
restaurante restaurantes > jantar_fora
cachorro cão cães cachorros filhote > dachshund beagle labrador poodle
gato gatos gatinho
pet pets > cachorro gato
voo voos avião > assento corredor janela
mala bagagem
praia litoral > mar
montanha montanhas > serra trilha
instrumento > violão guitarra piano violino violoncelo bateria
correr corrida
academia ginásio exercício treino > musculação
livro livros romance romances > ler leitura
xadrez > catan
fotografia fotos > câmera câmara
trilha caminhada > caminhar
futebol > clube time
música > jazz rock pop clássica discos
show concerto shows > ingressos bilhetes banda
série séries > episódio
filme filmes cinema
videogame videogames jogos > switch playstation xbox nintendo zelda
faculdade universidade > mestrado licenciatura doutorado
curso aula aulas > lição
notebook portátil computador > thinkpad macbook
celular telemóvel telefone > iphone samsung
senha senhas
fones auscultadores
aniversário nasci > nascimento
casado casada casamento > esposa marido
prenda prendas
advogado advogada
cabeleireiro cabeleireira barbeiro
doação doar > voluntariado
creche babá > berçário
amigo amiga amigos amigas > melhor_amigo melhor_amiga
vizinho vizinha vizinhos vizinhas
sogros > sogra sogro
netos neto neta
grávida gravidez > parto
divórcio divorciado divorciada separado separada
cozinhar > receitas
banheiro casa_de_banho > chuveiro banheira
limpeza faxina > lavar_roupa aspirador louça
máquina_de_lavar geladeira frigorífico > eletrodomésticos
contracheque holerite recibo_de_vencimento > salário
plantão > turno_da_noite
promovido promovida
desemprego desempregado desempregada > procurar_emprego
entrevista_de_emprego > currículo
autônomo autônoma freelancer
doente doença resfriado constipação > atestado gripe
hospital > pronto-socorro urgência
cirurgia operado operada
dor_nas_costas > lombar
dor_de_cabeça enxaqueca
diabetes diabético diabética > insulina
asma asmático > bombinha inalador
fisioterapia fisio fisioterapeuta
plano_de_saúde convênio
ansiedade > crise_de_pânico
depressão deprimido deprimida
bolo bolos confeitaria
fruta frutas > maçãs bananas
legumes verduras > salada
doces chocolate
almoço jantar
peixe > salmão frutos_do_mar
picante apimentado
roedor roedores > hamster porquinho-da-índia
pássaro pássaros periquito calopsita
aquário peixes
cavalo cavalos equitação > pônei
transporte_público > ônibus metrô trem
táxi uber
gasolina diesel combustível abastecer
estacionar estacionamento
trânsito engarrafamento
conta_bancária > transferência pix
boletos > fatura
impostos imposto_de_renda
orçamento gastos despesas
cartão_de_crédito > mastercard
tricô costura costurar crochê
pintar desenhar desenho > aquarela
cantar coral
dançar dança > forró samba
artesanato bricolagem
pescar pesca
camping acampar > barraca
colecionar coleção > selos
ioga yoga > meditação
escalada escalar
natação nadar piscina
maromba > musculação academia
maratona meia_maratona
viagem viagens viajar > férias
hotel hotéis > hospedagem airbnb
escola colégio > turma aluno aluna
lição_de_casa dever_de_casa
vestibular enem
roupa roupas > sapatos casaco
igreja religião > rezar missa
idiomas > inglês espanhol francês
tv televisão
tablet ipad
""",
    language.RUSSIAN: """
дети ребёнок ребенок детей детки > дочь дочка сын малыш мальчик девочка
дочь дочка дочери > девочка
сын сыновья > мальчик
малыш младенец новорождённый новорожденный
родители > мать мама отец папа
мама мать
папа отец
бабушка дедушка > бабуля дед
братья_и_сёстры > брат сестра
супруг супруга партнёр партнер > жена муж девушка парень невеста жених
жена муж > женат замужем свадьба
родственники семья родня > двоюродный тётя тетя дядя племянница племянник
начальник начальница руководитель шеф > менеджер
коллега коллеги
работа профессия должность > разработчик программист инженер медсестра учитель учительница
работодатель компания фирма > стартап
зарплата зарплату доход оклад > зарабатываю
отпуск > поездка
увольнение уволился уволилась
удалёнка удаленка удалённо удаленно > дома
врач доктор терапевт
педиатр
ветеринар
стоматолог зубной зубы зуб
лекарство лекарства таблетки препараты рецепт > мг доза
антидепрессант антидепрессанты > сертралин флуоксетин циталопрам эсциталопрам
обезболивающее обезболивающие > ибупрофен парацетамол аспирин
антибиотик антибиотики > пенициллин амоксициллин
аллергия аллергии аллергик > непереносимость сыпь
гипертония > давление
терапия психотерапевт психолог > психическое_здоровье
зрение глаза > линзы близорукость
прививка прививки вакцина > столбняк грипп
травма > растяжение перелом сломал сломала
диета питание > вегетарианец вегетарианка веган мясо глютен
вегетарианец вегетарианка > мясо
молочное молоко > лактоза
кофе кофеин > эспрессо латте капучино
алкоголь > вино пиво виски
курение курю сигареты никотин
вес > килограммов похудеть
сон спать > кровать
машина машину автомобиль авто > гольф bmw audi toyota tesla лада
мотоцикл
велосипед > велоспорт
водительские
автосервис > механик
квартира квартиру жильё жилье > аренда съёмная
арендодатель
интернет wifi вайфай > роутер
растения > монстера фикус
сад огород дача > овощи
диван
мебель > диван стол стул кровать шкаф
отопление
электричество > тариф
мусор > переработка
посылка посылки доставка
сбережения накопления инвестиции акции > фонд
пенсия
продукты супермаркет магазин > еда
подписка подписки > netflix spotify
долг долги кредит заём > ипотека
любимый любимая любимое
ресторан рестораны > ужинать
завтрак > овсянка каша
собака собаки пёс пес щенок > такса бигль лабрадор пудель
кошка кот коты кошки котёнок котенок
питомец питомцы > собака кошка кот
перелёт перелет рейс самолёт самолет
чемодан багаж
пляж море побережье
горы гора > альпы вершина поход
инструмент > гитара пианино скрипка виолончель барабаны
бег бегаю пробежка
спортзал фитнес тренировки
книга книги роман романы > читать чтение
настольные_игры > шахматы
фотография фото > фотоаппарат камера
поход походы > прогулка
футбол > клуб
музыка > джаз рок поп классика пластинки
концерт концерты > билеты
сериал сериалы > сезон
фильм фильмы кино
игры видеоигры > switch playstation xbox nintendo
учёба учеба университет институт вуз > магистратура бакалавриат аспирантура
занятия > урок
ноутбук компьютер > thinkpad macbook
телефон смартфон мобильный > iphone samsung
пароль пароли
наушники
родился родилась > рождение
женат замужем свадьба > годовщина
подарок подарки
деревня > вырос выросла
юрист адвокат
парикмахер стрижка
пожертвование пожертвования > волонтёр волонтер
садик няня
друг друзья подруга подруги > лучший_друг
сосед соседка соседи
свекровь тёща тесть свёкор
внуки внук внучка
беременна беременность > роды
развод развелись разведён разведена
переезд переехали переехал переехала
уборка убираться > стирка пылесос посуда
стиральная_машина посудомойка холодильник
расчётный_лист расчётка > зарплата
переработки сверхурочные
повысили > повышение
безработный безработица > ищу_работу
собеседование > резюме
фриланс фрилансер самозанятый
командировка командировки
болею болезнь простуда > больничный грипп
больница > скорая
мигрень головная_боль
диабет диабетик > инсулин
астма астматик > ингалятор
анализ_крови анализы
физиотерапия массаж
страховка полис > дмс омс
тревожность > панические_атаки
выпечка > торт пирог
фрукты > яблоки бананы
овощи > салат
сладкое сладости шоколад конфеты
обед ужин
рыба > лосось морепродукты
грызун грызуны > хомяк хомячок морская_свинка крыса
аквариум рыбки
лошадь лошади верховая_езда
общественный_транспорт > автобус метро электричка трамвай
бензин заправка > топливо
парковка парковаться
тачка > машина автомобиль
коммуналка квитанции
налоги > вычет декларация
бюджет расходы траты
кредитка кредитная_карта
наличные наличка
вязание вязать шитьё шить
рисование рисовать живопись > акварель
петь пение хор
танцы танцевать
рыбалка рыбачить
кемпинг палатка
коллекция > марки
йога > медитация
плавание плавать бассейн
качалка тренажёрка > спортзал штанга
марафон полумарафон
путешествие путешествия путешествовать > отпуск
отель гостиница
загранпаспорт паспорт виза
за_границей заграница
школа > ученик ученица
домашка домашнее_задание
экзамен экзамены егэ сессия > оценки
одежда > обувь куртка
обувь кроссовки
шопинг покупки
церковь религия > молиться
языки > английский немецкий
телевизор телик
планшет ipad
депрессия депрессивный
""",
    language.CHINESE: """
孩子 小孩 儿女 子女 > 女儿 儿子 宝宝 宝贝
女儿 闺女 > 孩子
儿子 > 孩子
宝宝 婴儿
父母 爸妈 > 妈妈 母亲 爸爸 父亲
妈妈 母亲
爸爸 父亲
爷爷 奶奶 外公 外婆 祖父 祖母 姥姥 姥爷
兄弟姐妹 > 哥哥 弟弟 姐姐 妹妹
配偶 伴侣 对象 > 老婆 妻子 太太 老公 丈夫 女朋友 男朋友 未婚妻 未婚夫
老婆 妻子 太太 > 结婚
老公 丈夫 > 结婚
亲戚 家人 > 表哥 表姐 堂哥 阿姨 叔叔 舅舅 侄子 外甥
老板 上司 领导 主管 经理
同事 > 团队
工作 职业 上班 > 工程师 程序员 护士 老师
公司 单位 > 创业
工资 薪水 收入 月薪 年薪 > 赚
假期 休假 年假 > 旅行 旅游
辞职 离职
居家办公 远程 > 在家
医生 大夫
儿科
兽医
牙医 牙齿 看牙
药 吃药 药物 处方 > 毫克 剂量
抗抑郁 > 舍曲林 氟西汀 西酞普兰 艾司西酞普兰
止痛药 > 布洛芬 扑热息痛 阿司匹林
抗生素 > 青霉素 阿莫西林
过敏 > 不耐受 疹子
高血压 > 血压
心理咨询 心理医生 治疗 > 心理健康
视力 眼睛 > 眼镜 隐形眼镜 近视
疫苗 打针 接种 > 破伤风 流感
受伤 > 扭伤 骨折
饮食 > 素食 吃素 纯素 肉 麸质
素食 吃素 > 肉
奶制品 牛奶 > 乳糖
咖啡 > 浓缩 拿铁 卡布奇诺
喝酒 > 葡萄酒 啤酒 白酒 威士忌
抽烟 吸烟 香烟
体重 > 公斤 减肥
睡眠 睡觉 > 失眠 起床
汽车 开车 > 丰田 本田 特斯拉 大众 宝马 奥迪 比亚迪
摩托 摩托车
自行车 单车 骑车
驾照
房子 公寓 住房 > 租房 房租 房东
网络 宽带 无线 > 路由器
植物 绿植 花草 > 龟背竹 多肉
花园 菜园 > 蔬菜
沙发
家具 > 沙发 桌子 椅子 衣柜
暖气
电费 电价
垃圾 > 回收
快递 包裹
存款 积蓄 理财 投资 股票 > 基金
退休 > 养老金
买菜 超市
会员 订阅 > 网飞
贷款 欠债 负债 > 房贷 车贷
最喜欢 喜欢
餐厅 饭店 下馆子 > 外出吃饭
早饭 早餐 > 燕麦 麦片
狗 狗狗 小狗 > 柯基 柴犬 金毛 泰迪 腊肠
猫 猫咪 小猫
宠物 > 狗 猫 柯基 腊肠
航班 飞机 > 座位 靠窗 过道
行李 行李箱
海边 海滩
爬山 登山 > 徒步
乐器 > 吉他 钢琴 小提琴 大提琴 架子鼓
跑步 慢跑
健身 运动 锻炼 > 健身房
读书 小说 > 看书 阅读
桌游 > 象棋 围棋
摄影 拍照 照片 > 相机
徒步 远足 > 散步
足球 > 球队
音乐 > 爵士 摇滚 流行 古典 唱片
演唱会 音乐会 > 门票 乐队
电视剧 > 追剧
电影 看电影
游戏 打游戏 > switch playstation xbox 任天堂
大学 学校 读书 > 硕士 本科 博士
课程 上课 培训
电脑 笔记本 > macbook thinkpad
手机 > iphone 华为 小米
密码
耳机
生日 出生
结婚 婚礼 > 纪念日
礼物
身高 > 个子
老家 家乡 > 长大
律师
理发 > 理发店
捐款 捐 > 志愿者
托儿所 幼儿园 保姆
朋友 好友 闺蜜 哥们 > 好朋友
岳父 岳母 婆婆 公婆
孙子 孙女 外孙 外孙女
怀孕 孕期 > 预产期
离婚 分居 > 前妻 前夫
搬家 > 新家
厨房 > 做饭
浴室 卫生间 > 洗澡
家务 打扫 > 洗衣服 拖地 洗碗
洗衣机 洗碗机 冰箱 > 家电
室友 合租
工资条 工资单 > 工资 薪水
升职 加薪 晋升
失业 找工作 > 求职
面试 > 简历
自由职业 个体户
生病 感冒 发烧 > 病假
医院 > 急诊 住院
手术 > 开刀
腰疼 腰痛 背疼 > 腰椎
头疼 头痛 偏头痛
糖尿病 > 胰岛素 血糖
验血 体检
理疗 康复 > 按摩
医保 保险 > 社保
抑郁 抑郁症
做饭 下厨 烹饪 > 菜谱 食谱
烘焙 > 蛋糕 面包
水果 > 苹果 香蕉
蔬菜 青菜 > 沙拉
甜食 零食 巧克力 > 糖果
喝茶 绿茶 红茶 > 茶叶
午饭 午餐 晚饭 晚餐
海鲜 > 三文鱼
吃辣 > 辣椒
啮齿动物 > 仓鼠 豚鼠
鹦鹉 小鸟
鱼缸 养鱼 > 金鱼
骑马 > 马术
公交 地铁 公共交通 > 公交车 高铁
打车 出租车 > 滴滴
汽油 加油站
停车 > 停车场 车位
电动车 新能源 > 充电
车子 私家车 爱车 > 汽车 开车
银行 > 转账
账单 水电费 > 缴费
交税 个税 > 报税
预算 开销 花销
信用卡 > 花呗
织毛衣 编织 缝纫 > 手工
画画 绘画 > 水彩 素描
唱歌 合唱
跳舞 舞蹈 > 广场舞
露营 > 帐篷
集邮 > 邮票
瑜伽 > 冥想
游泳 > 游泳池
网球 羽毛球 乒乓球
撸铁 举铁 健身房 > 力量训练
旅行 旅游 出游 > 度假
酒店 宾馆 民宿 > 住宿
护照 签证
出国 国外
景点 观光
学校 上学 > 学生 班级
作业 写作业
考试 高考 期末 > 成绩 分数
衣服 穿搭 > 鞋子 外套
鞋子 球鞋 运动鞋
购物 逛街 网购 > 淘宝
教会 宗教 信仰 > 祈祷 基督教 佛教
语言 外语 > 英语 日语
平板电脑 ipad
智能手表 手表
邻居 街坊 邻里
堵车 塞车
钓鱼 垂钓
焦虑 焦虑症
""",
    language.JAPANESE: """
子供 子ども こども > 娘 息子 赤ちゃん
娘 > 子供
息子 > 子供
赤ちゃん 赤ん坊 乳児
両親 > 母 母親 お母さん ママ 父 父親 お父さん パパ
母 母親 お母さん ママ
父 父親 お父さん パパ
祖父母 > 祖母 おばあちゃん 祖父 おじいちゃん
兄弟 > 兄 弟 姉 妹
配偶者 パートナー > 妻 旦那 彼女 彼氏 婚約者
妻 旦那 > 結婚
家族 親戚 > いとこ 叔母 叔父 姪 甥
上司 ボス 部長 課長 > マネージャー
同僚 > チーム
仕事 職業 > エンジニア 看護師 教師
会社 勤務先 > スタートアップ
給料 給与 年収 月収 収入
休暇 休み 有給 > 旅行
退職 辞職 転職
在宅勤務 リモート > 在宅
医者 医師 病院
小児科
獣医
歯医者 歯
薬 処方 > ミリグラム
抗うつ薬 > セルトラリン
鎮痛剤 痛み止め > イブプロフェン ロキソニン
抗生物質 > ペニシリン
アレルギー > 湿疹
高血圧 > 血圧
カウンセリング セラピー 心療内科 > メンタル
視力 > 眼鏡 メガネ コンタクト 近視
予防接種 ワクチン > インフルエンザ
怪我 けが > 捻挫 骨折
食事 > ベジタリアン ヴィーガン 肉 グルテン
ベジタリアン 菜食 > 肉
乳製品 牛乳 > 乳糖
コーヒー > エスプレッソ ラテ カプチーノ
お酒 > ワイン ビール 日本酒 ウイスキー
タバコ 喫煙 禁煙
体重 > キロ ダイエット
睡眠 寝る > 眠れ
自動車 愛車 マイカー > トヨタ ホンダ 日産 マツダ テスラ
バイク
自転車
免許
アパート マンション > 家賃 大家
インターネット ネット wifi > ルーター
植物 観葉植物 > モンステラ
家庭菜園 > 野菜
ソファ ソファー
家具 > ソファ テーブル 椅子 ベッド
暖房
電気 > 電気代
ゴミ > リサイクル
荷物 宅配 配達
貯金 貯蓄 投資 > 株式 投資信託
年金 老後 > 退職
買い物 スーパー
サブスク > ネットフリックス
借金 ローン > 住宅ローン
好き 大好き
レストラン 外食
朝ごはん 朝食 > オートミール シリアル
犬 わんちゃん 子犬 > ダックスフンド 柴犬 プードル
猫 ねこ ネコ 子猫
ペット > 犬 猫 柴犬
飛行機 フライト > 座席 窓側 通路側
スーツケース 荷物
海辺 ビーチ
登山 > ハイキング
楽器 > ギター ピアノ バイオリン チェロ ドラム
ランニング ジョギング 走る
ジム 運動 筋トレ トレーニング
小説 読書
ボードゲーム > 将棋 囲碁
写真 > カメラ
ハイキング > 散歩
サッカー > クラブ
音楽 > ジャズ ロック ポップ クラシック レコード
コンサート ライブ > チケット バンド
ドラマ > シーズン
映画 > 映画館
ゲーム > スイッチ プレステ 任天堂 ゼルダ
大学 学校 > 修士 学士 博士
講座 授業 レッスン
パソコン ノートパソコン > macbook thinkpad
スマホ 携帯 電話 > iphone アイフォン
パスワード
イヤホン ヘッドホン
誕生日 生まれ
結婚 結婚式 > 記念日
プレゼント 贈り物
身長
地元 故郷 実家 > 育った
弁護士
美容院 床屋
寄付 > ボランティア
保育園 幼稚園 ベビーシッター
友達 友だち 友人 親友
近所 ご近所 > 隣人
義理の両親 > 義母 義父
妊娠 > 出産 予定日
離婚 別居 > 元夫 元妻
引っ越し 引越し > 新居
台所 キッチン > 料理
お風呂 風呂 > シャワー 浴室
家事 掃除 > 洗濯 皿洗い 掃除機
洗濯機 食洗機 冷蔵庫 > 家電
ルームメイト シェアハウス
給与明細 給料明細 > 給料 給与
シフト 夜勤
昇進 昇給
失業 無職 > 就活 転職活動
面接 > 履歴書
オフィス 職場
フリーランス 自営業 個人事業主
病気 風邪 > 病欠 発熱
入院 病院 > 救急
腰痛 > ぎっくり腰 ヘルニア
頭痛 片頭痛 偏頭痛
糖尿病 > インスリン 血糖
喘息 ぜんそく
血液検査 健康診断 健診
リハビリ 理学療法 > 整体 マッサージ
保険 健康保険 > 保険証
料理 自炊 > レシピ
お菓子作り パン作り > ケーキ
果物 フルーツ > りんご バナナ
野菜 > サラダ
甘いもの お菓子 チョコ チョコレート
お茶 紅茶 緑茶
昼ごはん 昼食 ランチ 晩ごはん 夕食 夕飯
海鮮 > 鮭 サーモン
激辛 辛いもの
小動物 > うさぎ ハムスター モルモット
インコ 小鳥
金魚 熱帯魚 水槽
電車 地下鉄 バス 公共交通機関 > 通勤
ガソリン 給油 > ガソリンスタンド
駐車 駐車場
電気自動車 > 充電
クルマ 自家用車 > 自動車 マイカー
銀行 口座 > 振込
請求書 光熱費 公共料金
税金 確定申告 > 住民税
予算 出費 家計簿
クレジットカード クレカ
編み物 裁縫 手芸 > ミシン
お絵描き 水彩 > イラスト スケッチ
カラオケ 合唱
キャンプ > テント
コレクション > 切手
ヨガ > 瞑想
ボルダリング クライミング
水泳 泳ぐ プール
マラソン ハーフマラソン
旅行 > 観光
ホテル 旅館 > 宿泊
パスポート ビザ
学校 > 生徒 クラス
試験 テスト 受験 > 成績
洋服 > コート
買い物 ショッピング 通販
教会 宗教 > お寺 神社
言語 外国語 > 英語
タブレット ipad
スマートウォッチ 腕時計
うつ病 鬱病
残業 時間外労働
海外 外国
""",
}
