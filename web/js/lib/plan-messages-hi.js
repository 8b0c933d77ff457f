// Hindi for every phrase the planner can say (catalogue `planTexts`, core's pipesim/plan_texts.h),
// keyed by id, with exactly the placeholders of the English template; plan-text.js fills them
// from the phrase's params in the format each placeholder names. plan.part.* are clauses said
// inside another phrase (a leading space where they follow a word). tests/browser/lib-plan-text
// .test.mjs fails when core adds, drops or changes a phrase and this table has not followed.
// Terms a learner meets elsewhere on the page stay as the page writes them (all-to-all, EP, P, M,
// V, GPU-घंटे, model.routedParams). DOM-free.

export const PLAN_TEXTS_HI = Object.freeze({
  // training length
  'plan.step.tokens': '{tokens:si} प्रशिक्षण टोकन: कम से कम {min:si}, जिससे कम पर स्पेक पाइपलाइन पैरेललिज़्म की योजना बनाने से मना करता है।',
  'plan.refusal.under_1b_tokens': 'सिर्फ़ {tokens:si} प्रशिक्षण टोकन ({min:si} से कम): रन इतना छोटा है कि पाइपलाइन योजना पर लगी इंजीनियरिंग की मेहनत वसूल नहीं होगी।',
  'plan.step.tokens_refused': '{refusal} सुझाव: डेटा पैरेललिज़्म के साथ टेंसर पैरेललिज़्म।',
  'plan.step.memory_split': 'सिर्फ़ डेटा पैरेललिज़्म में हर GPU को वेट, ग्रेडिएंट और ऑप्टिमाइज़र के अपने हिस्से के लिए {perGpu:f1} GB रखने पड़ते, जो उपयोगी {usable:f1} GB ({memory:f0} GB का {usablePercent:f0}%) से ज़्यादा है: मॉडल को बाँटना होगा।',
  // hard rejects
  'plan.step.reject': '{reject} सुझाव: {recommend}।',
  'plan.reject.fits_one_gpu': 'मॉडल की ट्रेनिंग स्टेट (ZeRO-1 के साथ डेटा पैरेललिज़्म में हर GPU पर {perGpu:f1} GB) एक GPU की उपयोगी {usable:f1} GB मेमोरी में समा जाती है, इसलिए पाइपलाइन पैरेललिज़्म सिर्फ़ बबल जोड़ेगा।',
  'plan.reject.depth_requested': 'माँगा गया P = {ranks}, {max} से ज़्यादा है; शेड्यूल कोई भी हो, बबल P के साथ बढ़ता है।',
  'plan.reject.depth_to_fit': 'P = {max} पर भी हर GPU को {perGpu:f1} GB चाहिए, जो उपयोगी {usable:f1} GB से ज़्यादा है: मेमोरी में समाने के लिए P > {max} लेना पड़ेगा, और शेड्यूल कोई भी हो, बबल P के साथ बढ़ता है।',
  'plan.reject.dualpipe_without_ep': 'DualPipe पैरामीटर की दो कॉपी रखता है; एक्सपर्ट पैरेललिज़्म के बिना छिपाने लायक कोई all-to-all नहीं है जो उनका खर्च सही ठहराए।',
  'plan.reject.odd_microbatches': 'M = {microbatches} विषम है; {schedule:title} माइक्रो-बैच को दो दिशाओं में बाँटता है, इसलिए शेड्यूल पूरा नहीं होगा।',
  'plan.recommend.data_parallel': 'सिर्फ़ डेटा पैरेललिज़्म',
  'plan.recommend.shallower': 'P <= {max}, साथ में ज़्यादा डेटा पैरेललिज़्म',
  'plan.recommend.more_memory': 'हर GPU पर ज़्यादा मेमोरी, या मॉडल का ज़्यादा बँटवारा (टेंसर या एक्सपर्ट पैरेललिज़्म)',
  'plan.recommend.one_copy': 'DualPipeV (एक कॉपी) या Zero Bubble',
  'plan.recommend.even_microbatches': 'सम संख्या वाला M',
  // the schedule
  'plan.step.schedule_requested': '{schedule:title}: स्पेक में माँगा गया; कड़े अस्वीकार-नियमों पर जाँचा गया।',
  'plan.step.schedule_moe': 'एक्सपर्ट पैरेललिज़्म वाला MoE (EP = {ep}) -> DualPipe: उसकी ओवरलैप हुई फ़ॉरवर्ड-बैकवर्ड जोड़ियाँ all-to-all को छिपा देती हैं।',
  'plan.step.schedule_small_run': '{gpus} GPU, {limit} से कम -> 1F1B ठीक है: इस पैमाने पर बबल का खर्च कम है।',
  'plan.step.schedule_dense_under_500': '{gpus} GPU ({from} से {to}) पर कोई भारी all-to-all नहीं -> Zero Bubble (ZB-H1)।',
  'plan.step.schedule_dense_500_plus': '{gpus} GPU ({from} या ज़्यादा) पर कोई भारी all-to-all नहीं -> DualPipeV: एक ही पैरामीटर कॉपी के साथ DualPipe जितना बबल।',
  // refusals of DualPipe
  'plan.refusal.no_custom_all_to_all': 'इस टोपोलॉजी के लिए कोई कस्टम all-to-all कर्नेल नहीं: DualPipe का ओवरलैप उसी पर टिका है, इसलिए योजना {fallback:title} पर लौटती है।',
  'plan.refusal.interconnect_200gbps': 'हर GPU पर {gbps:f0} Gbps इंटरकनेक्ट ({limit:f0} या कम): all-to-all ओवरलैप की खिड़की इतनी संकरी है कि DualPipe की दूसरी पैरामीटर कॉपी का खर्च नहीं निकलता; DualPipeV एक ही कॉपी रखता है।',
  // depth, chunks, layers, micro-batches
  'plan.step.depth_requested': 'P = {ranks}: माँगा गया।',
  'plan.step.depth': 'P = {ranks}: पाठ का सुझाव {guide}{guideReason} है; ट्रेनिंग स्टेट P = {fit} से मेमोरी में समाने लगती है; {gpus} GPU को P से पूरा-पूरा बँटना चाहिए{epClause}।',
  'plan.part.guide_small_cluster': ' (छोटे क्लस्टर के लिए)',
  'plan.part.guide_frontier_moe': ' (फ़्रंटियर MoE के लिए)',
  'plan.part.depth_ep': ', और बचे डेटा-पैरेलल रैंक EP = {ep} के गुणज होने चाहिए',
  'plan.step.chunks_requested': 'हर रैंक पर V = {chunks} मॉडल चंक (माँगे गए): हर रैंक के पास {chunks} ग़ैर-पड़ोसी स्टेज होते हैं, जिससे वार्म-अप बबल V गुना घटता है और पॉइंट-टू-पॉइंट ट्रांसफ़र V गुना बढ़ते हैं।',
  'plan.step.chunks_default': 'हर रैंक पर V = {chunks} मॉडल चंक (शेड्यूल का डिफ़ॉल्ट): हर रैंक के पास {chunks} ग़ैर-पड़ोसी स्टेज होते हैं, जिससे वार्म-अप बबल V गुना घटता है और पॉइंट-टू-पॉइंट ट्रांसफ़र V गुना बढ़ते हैं।',
  'plan.step.layers': '{stages} स्टेज पर {layers} लेयर: हर स्टेज पर लगभग {perStage:f1} लेयर।',
  'plan.step.microbatches': 'M = {microbatches} (M/P = {perRank:f1}; पाठ के हिसाब से आम दायरा {low}-{high} है; ग्लोबल बैच छोटा रखने के लिए हम निचला सिरा लेते हैं)।',
  'plan.step.microbatches_requested': 'M = {microbatches} (M/P = {perRank:f1}; पाठ के हिसाब से आम दायरा {low}-{high} है; माँगा गया)।',
  // budget, bubble, communication, memory, activations
  'plan.step.budget': 'लगभग {gpuHours:k0} GPU-घंटे, DeepSeek-V3 के आँकड़े से अनुमानित: {referenceActive:si} सक्रिय पैरामीटर पर हर ट्रिलियन टोकन के {reference:k0} H800 GPU-घंटे{unknownGpu}; अपना आँकड़ा लेने के लिए रन के GPU-घंटे भरिए।',
  'plan.part.unknown_gpu': ' (GPU मॉडल "{gpu}" हमारी तालिका में नहीं है: उसे H800 जितना तेज़ माना गया)',
  'plan.step.bubble': 'सिम्युलेट किया गया बबल अंश {bubble:pct}, जबकि उसी P = {p} और M = {microbatches} पर 1F1B का {bubble1f1b:pct} (चंक की लागत F={f}, B={b}, W={w}, F&B={fb}; संचार नहीं गिना): पूरे रन में {saved:k1} GPU-घंटे बचते हैं, इसी M और इन्हीं लागतों पर।',
  'plan.step.communication': 'एक्सपर्ट all-to-all के साथ, गणना:संचार 1:{ratio:f2} (DeepSeek-V3 का {referenceGbps:f0} Gbps पर 1:{referenceRatio}, {gbps:f0} Gbps के हिसाब से बदला गया) और हर चंक में {layers} लेयर पर {schedule:title} उसका {hidden:pct} छिपाता है और {utilization:pct} समय गणना करता है, जबकि 1F1B {utilization1f1b:pct}: {saved:k1} GPU-घंटे बचते हैं।',
  'plan.step.memory_fits': 'हर GPU पर {params:si} पैरामीटर{copies}: लगभग {total:f1} GB ट्रेनिंग स्टेट, जबकि उपयोगी मेमोरी {usable:f1} GB है, इसलिए यह समा जाती है।{caveat}',
  'plan.step.memory_too_big': 'हर GPU पर {params:si} पैरामीटर{copies}: लगभग {total:f1} GB ट्रेनिंग स्टेट, जबकि उपयोगी मेमोरी {usable:f1} GB है, इसलिए यह नहीं समाती: P बढ़ाइए।{caveat}',
  'plan.part.extra_copies': ' ({copies} कॉपी, अतिरिक्त कॉपी के लिए {replication:f1} GB)',
  'plan.part.routed_unknown': ' model.routedParams के बिना सक्रिय पैरामीटर को हर कॉपी में दोहराया हुआ गिना गया है, जिससे मेमोरी ज़्यादा आँकी जाती है।',
  'plan.step.activations': '{schedule:title} हर GPU पर एक साथ अधिकतम {peak:f1} माइक्रो-बैच के एक्टिवेशन रखता है (एक इकाई: मॉडल के 1/P हिस्से से गुज़रा एक माइक्रो-बैच), जबकि उसी P और M पर 1F1B {peak1f1b:f1}; एक्टिवेशन मेमोरी ऊपर की ट्रेनिंग स्टेट में नहीं गिनी गई है।',
  // alternatives
  'plan.step.no_alternative': 'अधिकतम {copies} वाला कोई दूसरा शेड्यूल उसी P और M पर{withComm} इससे बेहतर नहीं करता।',
  'plan.part.one_copy': '{n} पैरामीटर कॉपी',
  'plan.part.copies': '{n} पैरामीटर कॉपी',
  'plan.part.with_all_to_all': ' all-to-all गिनने के बाद भी',
  'plan.step.alternatives': 'उसी P और M पर, बिना ज़्यादा पैरामीटर कॉपी के, ये शेड्यूल {schedule:title} ({own}, एक्टिवेशन की {peak:f1} इकाई) से बेहतर रहते: {list}। स्पेक की निर्णय-तालिका इन्हें नहीं चुनती; किसी को माँगने से पहले उसकी एक्टिवेशन मेमोरी तौल लीजिए।',
  'plan.part.alternative': '{schedule:title}{chunks} {measure} और एक्टिवेशन की {peak:f1} इकाई रखता है',
  'plan.part.chunks': ' (V = {chunks})',
  'plan.part.idles': '{bubble:pct} समय ख़ाली रहता है',
  'plan.part.computes': '{utilization:pct} समय गणना करता है',
  'plan.part.computes_of_time': '{utilization:pct} समय गणना करता है',
  // the all-to-all kernel
  'plan.kernel.none': 'कोई एक्सपर्ट all-to-all नहीं: पाइपलाइन का send/receive और डेटा-पैरेलल ग्रेडिएंट रिडक्शन ही सामूहिक संचार हैं, और सामान्य collective लाइब्रेरी इन्हें संभाल लेती है।',
  'plan.kernel.stock': 'EP = {ep}, {nodes} में फैला है। टोपोलॉजी के हिसाब से बने कर्नेल के बिना सामान्य all-to-all लीजिए और Zero Bubble से उसे क्रिटिकल पाथ से दूर रखिए; जब DeepSeek के DeepEP जैसा कर्नेल (नोड-सीमित रूटिंग, IB से NVLink पर फ़ॉरवर्डिंग) इस क्लस्टर पर चलने लगे, तब DualPipe पर फिर विचार कीजिए।',
  'plan.kernel.custom': 'EP = {ep}, {nodes} में फैला है। टोपोलॉजी के हिसाब से बना अपना all-to-all कर्नेल ओवरलैप हुई फ़ॉरवर्ड-बैकवर्ड जोड़ियों के भीतर SM के एक तय हिस्से पर चलाइए (DeepSeek-V3 ने H800 के 132 में से 20 SM लगाए, रिपोर्ट §3.2.2), ताकि dispatch और combine दूसरे चंक की गणना के साथ-साथ चलें।',
  'plan.part.one_node': '{n} नोड',
  'plan.part.nodes': '{n} नोड',
  // the rollback trigger
  'plan.rollback.no_fallback': 'पहले {steps} स्टेप में कुल GPU उपयोग (aggregate GPU utilization) मापिए। अगर वह {threshold:pct} (इस शेड्यूल की सिम्युलेटेड ऊपरी सीमा) से नीचे रहे, तो कोई सरल शेड्यूल मदद नहीं करेगा: पिछड़ने वाले GPU (stragglers) ढूँढिए, फिर P घटाइए।',
  'plan.rollback.fallback': 'पहले {steps} स्टेप में कुल GPU उपयोग (aggregate GPU utilization) मापिए। अगर वह {threshold:pct} से नीचे रहे, जो उसी P और M पर {fallback:title} की सिम्युलेटेड ऊपरी सीमा है{exposed}, तो {schedule:title} अपनी जटिलता का खर्च नहीं निकाल रहा: {fallback:title} पर लौट जाइए। (यह सीमा हमारा नियम है; स्पेक मापदंड बताता है, संख्या नहीं।)',
  'plan.part.all_to_all_exposed': ' (उसका all-to-all छिपाए बिना)',
  // a rejected or refused plan
  'plan.no_plan': 'लागू नहीं: कोई पाइपलाइन योजना नहीं।',
});
